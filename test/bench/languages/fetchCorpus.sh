#!/bin/sh
# Makes the language benchmark's corpus: one folder per package of packages.tsv, the Debian
# bookworm binary packages unpacked (apt-get download, snapshot 20250520) and the GitHub
# repositories at the listed commit. Then extract.ts cuts the snippets:
#   sh test/bench/languages/fetchCorpus.sh /tmp/langcorpus
#   node --experimental-strip-types test/bench/languages/extract.ts /tmp/langcorpus report test/bench/languages/heldout.json
set -eu
out=${1:?usage: fetchCorpus.sh DIRECTORY}
list=$(dirname "$0")/packages.tsv
mkdir -p "$out/debs"
grep -v '^#' "$list" | while IFS='	' read -r id set origin rules; do
  [ -d "$out/$id" ] && continue
  case "$origin" in
    debian*)
      spec=$(echo "$origin" | awk '{print $3}')
      (cd "$out/debs" && apt-get download "$spec")
      dpkg-deb -x "$out"/debs/"$id"_*.deb "$out/$id" ;;
    github*)
      repo=$(echo "$origin" | awk '{print $2}')
      git clone --quiet "https://github.com/${repo%@*}.git" "$out/$id.git"
      git -C "$out/$id.git" checkout --quiet "${repo#*@}"
      mkdir -p "$out/$id" && git -C "$out/$id.git" archive HEAD | tar -x -C "$out/$id" ;;
  esac
done
