#!/bin/bash
# Build the SELinux test policies into $BUILD/guest-data/selinux/, which
# initramfs.sh copies to the guest's /tests/data/selinux/:
#   policy.cap    tests/selinux/policy.conf with filename_trans_bind (bit 31)
#   policy.nocap  the same policy without it
#   policy.swap   policy.cap with the rules of "shadow" and "passwd"
#                 swapped (the stress test's changed policy)
#   policy.bit9   the same policy with bits 9-15 only (what upstream and
#                 posted series assigned after this kernel: netlink_xperm ...
#                 memfd_class, bpf_token_perms, bpf_object_perms), unknown to
#                 this kernel: none of them may switch the feature on
#   policy.reject, policy.deny
#                 a policy that knows nothing of the series (every class and
#                 permission of the pristine kernel, from its
#                 scripts/selinux/mdp, no mislabel) plus one named rule, built
#                 with handle_unknown reject and deny, with filename_trans_bind
#   refpolicy     Debian's reference policy (selinux-policy-default), as is
#   refpolicy.cap the reference policy with filename_trans_bind
#   refpolicy.rules, refpolicy.rules.cap, refpolicy.rules.strict
#                 the reference policy (without, with filename_trans_bind;
#                 strict: with it, and mislabel defined in file and dir,
#                 allowed nowhere) plus what lets the guest's harness enter
#                 the domains of its named type transitions
#                 (tests/selinux/refpol-rules.c)
#   refpol-rules.txt  those transitions, one a line, with what the policy
#                 permits (the selinux-refpol suite tests each of them)
# The policy is compiled with checkpolicy; the capability bit, which
# Debian's libsepol does not know by name, is set by tests/selinux/polcap.c.
set -euo pipefail
# shellcheck source=tests/scripts/common.sh
. "$(dirname "$0")/common.sh"

POLCAP_BIT=31
src=$ROOT/tests/selinux
work=$BUILD/selinux
out=$BUILD/guest-data/selinux
refpolicy_dir=/etc/selinux/default/policy

build_polcap() {
	local libsepol=/usr/lib/x86_64-linux-gnu/libsepol.a
	[ -f "$libsepol" ] || die "$libsepol missing (install libsepol-dev: make deps)"
	gcc -O2 -Wall -Wextra -Werror -o "$work/polcap" "$src/polcap.c" "$libsepol"
}

build_refpol_rules() {
	gcc -O2 -Wall -Wextra -Werror -o "$work/refpol-rules" "$src/refpol-rules.c" \
		/usr/lib/x86_64-linux-gnu/libsepol.a
}

build_test_policies() {
	command -v checkpolicy >/dev/null || die "checkpolicy missing (make deps)"
	checkpolicy -U allow -c 33 -o "$work/policy.base" "$src/policy.conf" >/dev/null
	"$work/polcap" "$work/policy.base" "$out/policy.cap" "+$POLCAP_BIT"
	"$work/polcap" "$work/policy.base" "$out/policy.nocap" "-$POLCAP_BIT"
	"$work/polcap" "$work/policy.base" "$out/policy.bit9" +9 +10 +11 +12 +13 +14 +15 \
		"-$POLCAP_BIT"
	[ "$("$work/polcap" "$out/policy.cap" | grep -cx "$POLCAP_BIT")" = 1 ] ||
		die "policy.cap lacks capability $POLCAP_BIT"
	[ "$("$work/polcap" "$out/policy.nocap" | grep -cx "$POLCAP_BIT")" = 0 ] ||
		die "policy.nocap has capability $POLCAP_BIT"
	# policy.swap: policy.cap with the types of "shadow" and "passwd"
	# swapped, the changed policy that the stress loads in turn.
	LC_ALL=C sed -e 's/^\(type_transition domain etc_t:file \)shadow_t "shadow";/\1passwd_t "shadow";/' \
		-e 's/^\(type_transition domain etc_t:file \)passwd_t "passwd";/\1shadow_t "passwd";/' \
		"$src/policy.conf" > "$work/policy.swap.conf"
	[ "$(LC_ALL=C grep -c -e 'passwd_t "shadow"' -e 'shadow_t "passwd"' "$work/policy.swap.conf")" = 2 ] ||
		die "policy.swap: the rules of shadow and passwd were not swapped"
	checkpolicy -U allow -c 33 -o "$work/policy.swap.base" "$work/policy.swap.conf" >/dev/null
	"$work/polcap" "$work/policy.swap.base" "$out/policy.swap" "+$POLCAP_BIT"
}

# The dummy policy of the pristine kernel (scripts/selinux/mdp: all its
# classes and permissions, everything allowed to base_t), without its
# policycap lines (Debian's checkpolicy does not know every name), plus a
# name rule: base_t files named "strict" in a base_t directory are
# strict_t, which base_t may relabel to.
build_mdp_policies() {
	local m=$work/mdp f u
	rm -rf "$m" && mkdir -p "$m/sel" "$m/inc/generated"
	: > "$m/inc/generated/autoconf.h"
	for f in classmap.h initial_sid_to_string.h policycap_names.h policycap.h; do
		git -C "$KSRC" show "$PRISTINE_TAG:security/selinux/include/$f" > "$m/sel/$f"
	done
	git -C "$KSRC" show "$PRISTINE_TAG:scripts/selinux/mdp/mdp.c" > "$m/mdp.c"
	gcc -O2 -I"$m/sel" -I"$KSRC/include/uapi" -I"$KSRC/include" -I"$m/inc" \
		-o "$m/mdp" "$m/mdp.c"
	"$m/mdp" "$m/policy.conf" "$m/file_contexts" > /dev/null
	grep -q '^class file$' "$m/policy.conf" || die "mdp wrote no policy"
	sed -i -e '/^policycap /d' -e '/^role base_r types { base_t };$/a\
type strict_t;\
role base_r types { strict_t };\
allow base_t strict_t:{ file dir lnk_file } *;\
allow strict_t base_t:filesystem associate;\
type_transition base_t base_t:file strict_t "strict";' -e '/^fs_use_task sockfs /a\
fs_use_xattr ext4 user_u:object_r:base_t;\
fs_use_trans tmpfs user_u:object_r:base_t;' "$m/policy.conf"
	! grep -qw mislabel "$m/policy.conf" || die "the pristine class map has mislabel"
	for u in reject deny; do
		checkpolicy -U "$u" -c 33 -o "$m/policy.$u" "$m/policy.conf" >/dev/null
		"$work/polcap" "$m/policy.$u" "$out/policy.$u" "+$POLCAP_BIT"
	done
}

copy_refpolicy() {
	local f
	f=$(find "$refpolicy_dir" -maxdepth 1 -name 'policy.[0-9]*' 2>/dev/null | sort -V | tail -n1)
	[ -n "$f" ] || die "no reference policy in $refpolicy_dir (install selinux-policy-default: make deps)"
	cp "$f" "$out/refpolicy"
	"$work/polcap" "$f" "$out/refpolicy.cap" "+$POLCAP_BIT"
	"$work/refpol-rules" "$f" "$out/refpol-rules.txt" "$out/refpolicy.rules" \
		"$out/refpolicy.rules.cap" "$out/refpolicy.rules.strict" >&2
	[ "$("$work/polcap" "$out/refpolicy.rules.cap" | grep -cx "$POLCAP_BIT")" = 1 ] ||
		die "refpolicy.rules.cap lacks capability $POLCAP_BIT"
	[ "$("$work/polcap" "$out/refpolicy.rules" | grep -cx "$POLCAP_BIT")" = 0 ] ||
		die "refpolicy.rules has capability $POLCAP_BIT"
	[ "$("$work/polcap" "$out/refpolicy.rules.strict" | grep -cx "$POLCAP_BIT")" = 1 ] ||
		die "refpolicy.rules.strict lacks capability $POLCAP_BIT"
}

mkdir -p "$work" "$out"
build_polcap
build_refpol_rules
build_test_policies
build_mdp_policies
copy_refpolicy
msg "SELinux policies ready in $out"
