#!/bin/sh
# Makes the language benchmark's corpus: one folder per package of packages.tsv, the Debian
# bookworm binary packages unpacked (apt-get download, snapshot 20250520; run apt-get update
# first, as some pinned versions are only in bookworm-security) and the GitHub repositories at
# the listed commit. Then extract.ts cuts the snippets:
#   sh test/bench/languages/fetchCorpus.sh /tmp/langcorpus
#   node --experimental-strip-types test/bench/languages/extract.ts /tmp/langcorpus report test/bench/languages/heldout.json
# Where github.com is out of reach, CORPUS_GIT_MIRRORS=DIR reads the repositories from git
# directories DIR/owner+name (bare, or its repo/ or repo/.git, the layouts seen) instead of cloning.
# Either way writeTree.mjs writes the commit's files one by one, as such snapshots lack blobs of
# 4 MiB and more and git archive or checkout would stop at the first; a package that can't be
# written is reported and left out (no folder), so running this again retries just those.
set -eu
out=${1:?usage: fetchCorpus.sh DIRECTORY}
here=$(dirname "$0")
mkdir -p "$out/debs"
grep -v '^#' "$here/packages.tsv" | while IFS='	' read -r id set origin rules; do
  [ -d "$out/$id" ] && continue
  case "$origin" in
    debian*)
      spec=$(echo "$origin" | awk '{print $3}')
      (cd "$out/debs" && apt-get download "$spec")
      dpkg-deb -x "$out"/debs/"$id"_*.deb "$out/$id" ;;
    github*)
      repo=$(echo "$origin" | awk '{print $2}')
      if [ -n "${CORPUS_GIT_MIRRORS:-}" ]; then m=$CORPUS_GIT_MIRRORS/$(echo "${repo%@*}" | tr / +)
      else m=$out/$id.git  # bare; an older run's clone with a work tree is read from its .git
        [ -d "$m" ] || git clone --quiet --bare "https://github.com/${repo%@*}.git" "$m" || { echo "$id: not cloned" >&2; continue; }
      fi
      git=
      for d in "$m" "$m/.git" "$m/repo" "$m/repo/.git"; do [ -d "$d/objects" ] && { git=$d; break; }; done
      [ -n "$git" ] || { echo "$id: no git directory in $m" >&2; continue; }
      # into a scratch folder first, so that a failure (a commit the mirror lacks) leaves no folder
      rm -rf "$out/$id.part"
      if n=$(node "$here/writeTree.mjs" "$git" "${repo#*@}" "$out/$id.part"); then echo "$id: $n"; mv "$out/$id.part" "$out/$id"
      else echo "$id: not written" >&2; rm -rf "$out/$id.part"; fi ;;
  esac
done
