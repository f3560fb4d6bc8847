#!/bin/bash
# Unpack the pristine kernel into build/linux as a git repository (first
# commit tagged "pristine"), then apply patches/series with git am.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

check_version() {
	local want have
	want=$(cat "$KVERSION_FILE")
	have=$(dpkg-query -W -f '${Version}' linux-source-6.12 2>/dev/null || echo unknown)
	if [ "$want" != "$have" ]; then
		warn "series is tested against linux-source-6.12 $want, installed is $have"
	fi
}

unpack() {
	local tmp
	[ -f "$KTARBALL" ] || die "$KTARBALL missing (run make deps)"
	rm -rf "$KSRC" "$KSRC.tmp"
	mkdir -p "$KSRC.tmp"
	msg "unpacking $KTARBALL"
	tar -C "$KSRC.tmp" -xf "$KTARBALL"
	tmp=$(find "$KSRC.tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
	mv "$tmp" "$KSRC"
	rmdir "$KSRC.tmp"
	cd "$KSRC"
	git init -q
	git config user.name "${GIT_AUTHOR_NAME:-namegate builder}"
	git config user.email "${GIT_AUTHOR_EMAIL:-builder@localhost}"
	git config core.autocrlf false
	git add -A -f .
	git commit -q -m "Debian linux-source-6.12 $(cat "$KVERSION_FILE")" --no-verify
	git tag "$PRISTINE_TAG"
}

apply_series() {
	local p
	cd "$KSRC"
	[ -f "$ROOT/patches/series" ] || return 0
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$ROOT/patches/$p" ] || die "patches/series names $p, which does not exist"
		if ! git am -q --whitespace=nowarn "$ROOT/patches/$p" >/dev/null 2>&1; then
			git am --abort >/dev/null 2>&1 || true
			die "patch does not apply: patches/$p"
		fi
	done < "$ROOT/patches/series"
}

# sync_existing: the tree is already unpacked.  Leave it alone if it holds
# exactly patches/; reset and re-apply if it holds what was last synced (so
# patches/ changed, e.g. after a pull); refuse if it holds work that was
# never exported, unless FORCE=1.
sync_existing() {
	local tmp have want stamp
	if [ -n "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] && [ "${FORCE:-0}" != 1 ]; then
		die "$KSRC has uncommitted changes: commit and 'make export', or FORCE=1 to discard"
	fi
	tmp=$(mktemp -d)
	have=none
	if "$ROOT/tests/scripts/export.sh" "$tmp" 2>/dev/null; then
		have=$(series_hash "$tmp")
	fi
	rm -rf "$tmp"
	want=$(series_hash "$ROOT/patches")
	stamp=$(cat "$BUILD/.tree-stamp" 2>/dev/null || echo none)
	if [ "$have" = "$want" ]; then
		echo "$want" > "$BUILD/.tree-stamp"
		msg "tree is up to date with patches/"
		exit 0
	fi
	if [ "$have" != "$stamp" ] && [ "${FORCE:-0}" != 1 ]; then
		die "$KSRC holds commits that are not in patches/: 'make export' them, or FORCE=1 to discard"
	fi
	git -C "$KSRC" am --abort >/dev/null 2>&1 || true
	git -C "$KSRC" checkout -q -f -B master "$PRISTINE_TAG"
	git -C "$KSRC" clean -q -fd
}

# --check-exported (make distclean): succeed only if build/linux is absent
# or holds exactly patches/ (nothing would be lost by removing it).
if [ "${1:-}" = --check-exported ]; then
	[ -e "$KSRC/.git" ] || exit 0
	[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
		die "$KSRC has uncommitted changes: commit and 'make export' first"
	tmp=$(mktemp -d)
	"$ROOT/tests/scripts/export.sh" "$tmp" >/dev/null 2>&1 || true
	have=$(series_hash "$tmp")
	rm -rf "$tmp"
	[ "$have" = "$(series_hash "$ROOT/patches")" ] ||
		die "$KSRC holds commits that are not in patches/: 'make export' them first"
	exit 0
fi

check_version
if [ -e "$KSRC/.git" ] && git -C "$KSRC" rev-parse -q --verify "refs/tags/$PRISTINE_TAG" >/dev/null; then
	sync_existing
else
	unpack
fi
apply_series
series_hash "$ROOT/patches" > "$BUILD/.tree-stamp"
msg "tree ready: $KSRC ($(git -C "$KSRC" rev-list --count "$PRISTINE_TAG"..HEAD) patches applied)"
