#!/usr/bin/env bash
# The vmafpp(1) page the build wrote names every long option of
# `vmafpp --help`, `vmafpp merge --help`, report's and batch's, and formats without a warning.
#   manpage_test.sh CLI MANPAGE
set -euo pipefail
cli=$1 page=$2
[ -s "$page" ] || { echo "no man page at $page"; exit 1; }
options=$( { "$cli" --help; "$cli" merge --help; "$cli" report --help; "$cli" batch --help; } | grep -oE -- '--[A-Za-z0-9][A-Za-z0-9_-]*' | sort -u)
[ "$(wc -l <<< "$options")" -gt 30 ] || { echo "too few options in --help: $options"; exit 1; }
missing=0
for o in $options; do
  # roff spells a minus \-; the page shows it as "-".
  if ! grep -qF -- "\\fB${o//-/\\-}\\fR" "$page"; then
    echo "the man page lacks $o"; missing=1
  fi
done
[ "$missing" = 0 ] || exit 1
if command -v groff > /dev/null; then
  warnings=$(groff -man -Tutf8 -wall "$page" 2>&1 > /dev/null)
  [ -z "$warnings" ] || { echo "groff: $warnings"; exit 1; }
  # The rendered page: a reader sees each option as typed.
  rendered=$(groff -man -Tutf8 "$page" 2>/dev/null | sed 's/.\x08//g')
  for o in $options; do
    grep -qF -- "$o" <<< "$rendered" || { echo "rendered page lacks $o"; exit 1; }
  done
fi
echo "man page: $(wc -l <<< "$options") options, all named"
