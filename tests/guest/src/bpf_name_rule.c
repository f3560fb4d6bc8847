// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_name_rule -u UID -n NAME [-n NAME...] -- COMMAND [ARG...]
 *
 * Load the series' BPF selftest program progs/lsm_inode_name.c (a BPF LSM
 * program on inode_name), deny user UID linking, renaming or exchanging a
 * file onto any NAME, attach it, run COMMAND, and detach when it exits:
 * namegate's "deny link,rename name=.htaccess uid=33" without kernel code,
 * for make bench (configuration bpfgate) and the demo.  Prints how many
 * bindings the program refused; exits with COMMAND's status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lsm_inode_name.h"
#include "lsm_inode_name.skel.h"

static int usage(void)
{
	fprintf(stderr, "usage: bpf_name_rule -u UID -n NAME [-n NAME...] -- COMMAND [ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct lsm_inode_name *skel;
	char *names[16];
	int nnames = 0, opt, i, err, status;
	long uid = -1;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+u:n:")) != -1) {
		switch (opt) {
		case 'u':
			uid = strtol(optarg, NULL, 10);
			break;
		case 'n':
			if (nnames == (int)(sizeof(names) / sizeof(names[0])))
				return usage();
			names[nnames++] = optarg;
			break;
		default:
			return usage();
		}
	}
	if (uid < 0 || !nnames || optind >= argc)
		return usage();

	skel = lsm_inode_name__open_and_load();
	if (!skel) {
		fprintf(stderr, "bpf_name_rule: loading the program: %s\n", strerror(errno));
		return 1;
	}
	skel->data->denied_uid = uid;
	for (i = 0; i < nnames; i++) {
		char key[LSM_INODE_NAME_MAX] = {};
		__u8 one = 1;

		if (strlen(names[i]) >= sizeof(key)) {
			fprintf(stderr, "bpf_name_rule: name too long: %s\n", names[i]);
			return 1;
		}
		memcpy(key, names[i], strlen(names[i]));
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.denied_names), key, &one, BPF_ANY)) {
			fprintf(stderr, "bpf_name_rule: adding %s: %s\n", names[i], strerror(errno));
			return 1;
		}
	}
	err = lsm_inode_name__attach(skel);
	if (err) {
		fprintf(stderr, "bpf_name_rule: attaching (is bpf in lsm=?): %s\n", strerror(-err));
		return 1;
	}
	printf("# bpf_name_rule: program deny_name: %zu instructions, %d names, uid %ld\n",
	       bpf_program__insn_cnt(skel->progs.deny_name), nnames, uid);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	printf("# bpf_name_rule: %llu bindings denied\n", (unsigned long long)skel->bss->denied);
	lsm_inode_name__destroy(skel);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
