// SPDX-License-Identifier: GPL-2.0
/*
 * tcgprof: a QEMU TCG plugin that counts the guest instructions executed at
 * each kernel address, for make bench's per-function attribution
 * (tests/scripts/bench.sh maps the addresses to System.map).
 *
 * Every translated block gets an inline counter, so the cost under TCG is
 * one add per block executed; at exit, each instruction of a block is
 * credited with the block's count.  Only addresses in the kernel's text
 * mapping (0xffffffff80000000 and up) are kept.
 *
 *   qemu-system-x86_64 ... -plugin tcgprof.so,out=FILE[,mark=ADDR]
 *
 * FILE gets one line per executed kernel instruction address: "ADDR COUNT"
 * (hexadecimal address, decimal count), counted from the start of the
 * guest to the end of QEMU.  With mark=ADDR (hexadecimal, a kernel
 * function's address from System.map), each time the guest executes the
 * instruction at ADDR the counts so far are also written to FILE.1,
 * FILE.2, ...: the guest marks the start and the end of what is to be
 * measured by calling that function (make bench: the system call
 * sched_rr_get_interval(), which nothing else in its guest calls), and the
 * difference of two such files is what ran between the marks.
 *
 * QEMU 7.2 (Debian 12) installs no plugin header; the few declarations of
 * its plugin interface (version 1) that this file uses are written out
 * below.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;	/* not read */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };

typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);
typedef void (*vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  vcpu_udata_cb cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op, void *ptr,
					      uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb,
				    void *userdata);
void qemu_plugin_outs(const char *string);

EXPORT int qemu_plugin_version = 1;

#define KERNEL_TEXT 0xffffffff80000000ULL

/* One translation of a block: its count and its instructions' addresses. */
struct block {
	uint64_t count;
	struct block *next;
	size_t n;
	uint64_t vaddr[];
};

static struct block *blocks;
static char *out_path;
static uint64_t mark;
static unsigned int marks;

static void dump(const char *path);

/* The block holding the mark ran: the counts so far, to FILE.N. */
static void at_mark(unsigned int vcpu_index, void *userdata)
{
	char path[4096];

	(void)vcpu_index;
	(void)userdata;
	snprintf(path, sizeof(path), "%s.%u", out_path, ++marks);
	dump(path);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	if (qemu_plugin_tb_vaddr(tb) < KERNEL_TEXT || !n)
		return;
	b = calloc(1, sizeof(*b) + n * sizeof(b->vaddr[0]));
	if (!b)
		abort();
	b->n = n;
	for (i = 0; i < n; i++)
		b->vaddr[i] = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
	/* One vCPU (make bench boots -smp 1): no lock for the list. */
	b->next = blocks;
	blocks = b;
	/* The snapshot may or may not hold the mark's own block. */
	for (i = 0; mark && i < n; i++)
		if (b->vaddr[i] == mark)
			qemu_plugin_register_vcpu_tb_exec_cb(tb, at_mark,
							     QEMU_PLUGIN_CB_NO_REGS,
							     NULL);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
	(void)id;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sum the counts per address: sort (address, count) pairs, then merge. */
static void dump(const char *path)
{
	size_t total = 0, k = 0, i;
	struct block *b;
	uint64_t *pairs;
	FILE *f;

	for (b = blocks; b; b = b->next)
		if (b->count)
			total += b->n;
	pairs = malloc((total ? total : 1) * 2 * sizeof(*pairs));
	if (!pairs)
		abort();
	for (b = blocks; b; b = b->next) {
		if (!b->count)
			continue;
		for (i = 0; i < b->n; i++) {
			pairs[2 * k] = b->vaddr[i];
			pairs[2 * k + 1] = b->count;
			k++;
		}
	}
	qsort(pairs, k, 2 * sizeof(*pairs), cmp_u64);
	f = fopen(path, "w");
	if (!f) {
		qemu_plugin_outs("tcgprof: cannot write the profile\n");
		free(pairs);
		return;
	}
	for (i = 0; i < k;) {
		uint64_t addr = pairs[2 * i], sum = 0;

		while (i < k && pairs[2 * i] == addr)
			sum += pairs[2 * i++ + 1];
		fprintf(f, "%" PRIx64 " %" PRIu64 "\n", addr, sum);
	}
	fclose(f);
	free(pairs);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	dump(out_path);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
		else if (!strncmp(argv[i], "mark=", 5))
			mark = strtoull(argv[i] + 5, NULL, 16);
	if (!out_path) {
		qemu_plugin_outs("tcgprof: give out=FILE\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
