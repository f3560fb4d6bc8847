#!/bin/bash
# Write the commits after the pristine tag in build/linux back into
# patches/<dir>/ by subject prefix, and rewrite patches/series.
#   export.sh [OUTDIR]   (default: patches/; tree.sh exports to a scratch dir
#                         to compare the tree with patches/)
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

dir_for_subject() {
	case "$1" in
	lsm:*|security:*|ovl:*|cachefiles:*|btrfs:*|bcachefs:*|selftests/bpf:*) echo core ;;
	selinux:*) echo selinux ;;
	smack:*) echo smack ;;
	namegate:*) echo example-lsm ;;
	*) return 1 ;;
	esac
}

[ -e "$KSRC/.git" ] || die "no tree in $KSRC (run make tree)"
cd "$KSRC"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "uncommitted changes in $KSRC: commit them first"

out=${1:-$ROOT/patches}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git format-patch -q --zero-commit --no-signature --abbrev=9 -N -o "$tmp" "$PRISTINE_TAG..HEAD"

for d in core selinux smack example-lsm; do
	mkdir -p "$out/$d"
	find "$out/$d" -maxdepth 1 -name '*.patch' -delete
done
: > "$tmp/series"
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	subject=$(sed -n 's/^Subject: \[PATCH\] //p' "$f" | head -n1)
	d=$(dir_for_subject "$subject") ||
		die "$(basename "$f"): subject '$subject' has no known prefix (lsm:, security:, ovl:, cachefiles:, btrfs:, bcachefs:, selftests/bpf:, selinux:, smack:, namegate:)"
	cp "$f" "$out/$d/"
	echo "$d/$(basename "$f")" >> "$tmp/series"
done
cp "$tmp/series" "$out/series"
[ -n "${1:-}" ] && exit 0
series_hash "$out" > "$BUILD/.tree-stamp"
msg "exported $(wc -l < "$out/series") patches to patches/"
"$ROOT/tests/scripts/cover-letter.sh"
