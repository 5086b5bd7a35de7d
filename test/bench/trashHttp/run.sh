#!/usr/bin/env bash
# Emptying a 20k-entry trash over HTTP on the host that trashed it, health probed every 100 ms
# (docs/reliability.md). Usage, from the repository: bash test/bench/trashHttp/run.sh [dist/cli.cjs] [snippets]
# Prints the import summary, the deletes' time, the data directory (WAL size) and one JSON line:
# when the empty started, its first byte and end (ms from the probe's start) and health's slowest answers.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLI=${1:-dist/cli.cjs}; N=${2:-20000}
NODE=./node_modules/.bin/node
W=$(mktemp -d); D=$W/data; mkdir -p $D
node "$HERE/gen.mjs" $N > $W/body.json
$NODE $CLI --data-dir $D --port 0 > $W/host.out 2>&1 &
H=$!
for i in $(seq 1 100); do grep -q serving $W/host.out && break; sleep 0.2; done
PORT=$(grep -o '127.0.0.1:[0-9]*' $W/host.out | head -1 | cut -d: -f2)
curl -s -X POST -H 'content-type: application/json' --data-binary @$W/body.json http://127.0.0.1:$PORT/satchel/import | tail -1 | cut -c1-160
sleep 2
$NODE --disable-warning=ExperimentalWarning -e "const {DatabaseSync}=require('node:sqlite');const d=new DatabaseSync('$D/satchel.db',{readOnly:true});console.log(JSON.stringify(d.prepare('SELECT id FROM assets').all().map(r=>r.id)))" > $W/ids.json
node "$HERE/fill.mjs" $PORT $W/ids.json
ls -la $D
node "$HERE/probe.mjs" $PORT /satchel/trash/empty 1000
kill -TERM $H; wait $H; cat $W/host.out; rm -rf $W
