// SPDX-License-Identifier: GPL-2.0
/* Load and attach every program of a BPF object (probe.bpf.o) until SIGINT or SIGTERM. */
#include <bpf/libbpf.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int s)
{
	(void)s;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct bpf_object *o;
	struct bpf_program *pr;

	if (argc != 2) {
		fprintf(stderr, "usage: %s probe.bpf.o\n", argv[0]);
		return 2;
	}
	o = bpf_object__open_file(argv[1], NULL);
	if (!o || bpf_object__load(o)) {
		fprintf(stderr,
			"%s: %s: could not load (root, CONFIG_BPF_SYSCALL and BTF needed)\n",
			argv[0], argv[1]);
		return 1;
	}
	bpf_object__for_each_program(pr, o)
	{
		if (!bpf_program__attach(pr)) {
			fprintf(stderr, "%s: %s: could not attach\n", argv[0],
				bpf_program__name(pr));
			return 1;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(stderr, "attached\n");
	while (!stop)
		pause();
	return 0;
}
