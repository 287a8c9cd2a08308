#!/usr/bin/env bash
# The bash completion is valid bash and completes a few prefixes as the CLI
# itself lists them.
#   completion_test.sh CLI COMPLETION_FILE WORK_DIR
set -euo pipefail
cli=$1 file=$2 work=$3
bash -n "$file"
rm -rf "$work"
mkdir -p "$work"
touch "$work/ref_clip.y4m" "$work/ref_other.mp4" "$work/dis.y4m"

# The candidates for the words "$@" (the last one being completed), one a
# line, sorted, as bash's programmable completion would call the function.
complete_words() {
  bash --norc --noprofile -c '
    source "$1"; shift
    complete -p vmafpp > /dev/null || { echo "vmafpp has no completion"; exit 1; }
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    compopt() { :; }  # readline options only: outside readline a no-op
    _vmafpp "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$file" "$@"
}

fail=0
expect() {  # expect "WANT (lines)" WORDS...
  local want=$1; shift
  local got
  got=$(complete_words "$@")
  if [ "$got" != "$want" ]; then
    printf 'completing "%s":\n  want: %s\n  got:  %s\n' "$*" "$(echo $want)" "$(echo $got)"
    fail=1
  fi
}

expect "--feature" "$cli" --fea
expect "$(printf '%s\n' --list-devices --list-features --list-models)" "$cli" --list-
expect "$("$cli" --list-features | grep '^float_' | sort)" "$cli" -n --feature float_
expect "version=vmaf_v0.6.1neg" "$cli" -m version=vmaf_v0.6.1n
expect "$("$cli" --list-models | grep '^vmaf_4k' | sed 's/^/version=/' | sort)" "$cli" --model version=vmaf_4k
expect "$(printf '%s\n' "$work/ref_clip.y4m" "$work/ref_other.mp4")" "$cli" -r "$work/ref"
expect "$work/dis.y4m" "$cli" -r x.y4m --distorted "$work/d"
expect "cpu" "$cli" --backend cp
expect "lanczos" "$cli" --scaler la
expect "--json" "$cli" merge a.chunk --js
expect "" "$cli" --threads 1
expect "--summary" "$cli" report a.json --summ
expect "--stats" "$cli" batch list.txt --st
expect "$(printf '%s\n' --report)" "$cli" batch list.txt --rep
expect "$work/dis.y4m" "$cli" batch list.txt --report "$work/d"
expect "$(printf '%s\n' batch)" "$cli" ba
[ "$("$cli" --list-features | wc -l)" -gt 10 ] || { echo "--list-features lists too few"; fail=1; }
[ "$fail" = 0 ] && echo "completion: every prefix completed as expected"
exit "$fail"
