#!/bin/bash
# Keep the generated parts of patches/0000-cover-letter.patch in step with
# the series in build/linux: the patch count in the subject, the shortlog
# and the diffstat.  The text above the shortlog is written by hand.
#   cover-letter.sh           rewrite the cover letter (export.sh runs it)
#   cover-letter.sh --check   exit 1 if it is out of date (check-style.sh)
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

cover=$ROOT/patches/0000-cover-letter.patch
[ -f "$cover" ] || die "no $cover"
[ -e "$KSRC/.git" ] || die "no tree in $KSRC (run make tree)"

n=$(git -C "$KSRC" rev-list --count "$PRISTINE_TAG..HEAD")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	# Everything up to the shortlog, with the patch count in the subject
	awk -v n="$n" '
		/^Subject: \[PATCH 00\/[0-9]+\]/ {
			sub(/00\/[0-9]+/, sprintf("%02d/%02d", 0, n))
		}
		/^[^ ].* \([0-9]+\):$/ { exit }
		{ print }
	' "$cover"
	git -C "$KSRC" shortlog "$PRISTINE_TAG..HEAD"
	git -C "$KSRC" diff --stat=78 "$PRISTINE_TAG" HEAD
	# The base and the signature as they were
	printf '\n'
	sed -n '/^base-commit:/,$p' "$cover"
} > "$tmp"

if [ "${1:-}" = --check ]; then
	if ! diff -u "$cover" "$tmp" >&2; then
		die "patches/0000-cover-letter.patch is out of date: run tests/scripts/cover-letter.sh"
	fi
	msg "cover letter matches the series ($n patches)"
	exit 0
fi
cp "$tmp" "$cover"
msg "cover letter: $n patches, shortlog and diffstat rewritten"
