// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest static program: bench execs it to time fork + execve + exit.
 */
int main(void)
{
	return 0;
}
