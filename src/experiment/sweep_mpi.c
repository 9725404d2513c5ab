/*
 * The cluster engine (built with -DSCHEDLAB_MPI=ON): under mpirun every rank parsed the same
 * command, so the ranks agree on the enumeration without exchanging it. Rank 0 reads the --out
 * file (resume) and broadcasts which runs are done; the remaining runs are dealt round-robin
 * (the k-th remaining run to rank k mod N); each rank simulates its own and sends each line to
 * rank 0, which also computes its share and alone writes the file, in run order, as the local
 * engine does, so the file is byte-identical to a -j 1 run's.
 *
 * Static dealing rather than a work queue: a rank needs no message to start, and runs of one
 * sweep cost about the same. Killing the job (mpirun forwards SIGINT/SIGTERM as a kill) loses no
 * written line; a rerun resumes.
 */
#include "experiment/sweep.h"
#include "core/escape.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROW_MAX	 65536
#define TAG_ROW	 1
#define TAG_ERR	 2
#define TAG_DONE 3

bool sl_sweep_mpi_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

/* The position of run idx in the sorted list of remaining runs. */
static u64 position(const u64 *todo, u64 n, u64 idx)
{
	u64 lo = 0, hi = n;

	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (todo[mid] < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* MPI_Abort ends every rank; abort() only tells the compiler it does not return. */
static void __attribute__((noreturn)) abort_all(int rc)
{
	MPI_Abort(MPI_COMM_WORLD, rc);
	abort();
}

static int finish(int rc)
{
	MPI_Finalize();
	return rc;
}

int sl_sweep_mpi(struct sl_sweep *sw)
{
	int rank, size, status = 0;
	char err[2048];

	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size == 1) {
		MPI_Finalize();
		return sl_sweep_local(sw);
	}
	if (sw->shard_n) {
		if (!rank)
			fprintf(stderr, "schedlab: sweep: --shard does not apply under mpirun (the "
					"ranks split the runs)\n");
		return finish(2);
	}
	bool *done = calloc(sw->nruns, sizeof(*done));
	u64 ndone = 0;

	if (!done) {
		fprintf(stderr, "schedlab: sweep: out of memory\n");
		abort_all(1);
	}
	if (!rank && sl_sweep_resume(sw, done, &ndone, err, sizeof(err))) {
		sl_say(stderr, err);
		status = 2;
	}
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (status) {
		free(done);
		return finish(status);
	}
	/* the done map, in chunks that fit an int count */
	for (u64 off = 0; off < sw->nruns; off += 1 << 30) {
		u64 n = sw->nruns - off < (1ULL << 30) ? sw->nruns - off : 1ULL << 30;

		MPI_Bcast(done + off, (int)n, MPI_C_BOOL, 0, MPI_COMM_WORLD);
	}
	u64 ntodo = 0;

	for (u64 i = 0; i < sw->nruns; i++)
		ntodo += !done[i];
	u64 *todo = malloc(sizeof(*todo) * (ntodo ? ntodo : 1));
	char *row = malloc(ROW_MAX + 8);

	if (!todo || !row) {
		fprintf(stderr, "schedlab: sweep: out of memory\n");
		abort_all(1);
	}
	ntodo = 0;
	for (u64 i = 0; i < sw->nruns; i++)
		if (!done[i])
			todo[ntodo++] = i;
	free(done);

	if (rank) {
		for (u64 p = (u64)rank; p < ntodo; p += (u64)size) {
			int n = sl_sweep_run_one(sw, todo[p], row + 8, ROW_MAX, err, sizeof(err));

			memcpy(row, &todo[p], 8);
			if (n < 0) {
				MPI_Send(err, (int)strlen(err) + 1, MPI_CHAR, 0, TAG_ERR,
					 MPI_COMM_WORLD);
				free(todo);
				free(row);
				return finish(1);
			}
			MPI_Send(row, n + 8, MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
		}
		MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
		free(todo);
		free(row);
		return finish(0);
	}

	/* rank 0: its own share, the others' lines, and the file */
	int fd = sl_sweep_open_out(sw);

	if (fd < 0)
		abort_all(1);
	if (ndone)
		fprintf(stderr, "schedlab: sweep: %llu runs already in %s, %llu to do\n",
			(unsigned long long)ndone, sw->out, (unsigned long long)ntodo);
	char **pending = calloc(ntodo ? ntodo : 1, sizeof(*pending));
	int *plen = calloc(ntodo ? ntodo : 1, sizeof(*plen));
	u64 mine = 0, written = 0;
	int ranks_done = 1, rc = 0;
	double t0 = MPI_Wtime();

	if (!pending || !plen) {
		fprintf(stderr, "schedlab: sweep: out of memory\n");
		abort_all(1);
	}
	while (written < ntodo && !rc) {
		if (mine < ntodo) {
			int n = sl_sweep_run_one(sw, todo[mine], row, ROW_MAX, err, sizeof(err));

			if (n < 0) {
				fprintf(stderr, "schedlab: sweep: %s\n", err);
				rc = 1;
				break;
			}
			pending[mine] = malloc((size_t)n);
			if (!pending[mine])
				abort_all(1);
			memcpy(pending[mine], row, (size_t)n);
			plen[mine] = n;
			mine += (u64)size;
		}
		/* take every line that has arrived; block only when rank 0 has nothing else */
		for (;;) {
			int flag = 0, count;
			MPI_Status stt;

			if (mine < ntodo) {
				MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
					   &stt);
			} else if (ranks_done < size && !pending[written]) {
				MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &stt);
				flag = 1;
			}
			if (!flag)
				break;
			MPI_Get_count(&stt, MPI_CHAR, &count);
			if (count > ROW_MAX + 8) {
				fprintf(stderr, "schedlab: sweep: rank %d sent %d bytes\n",
					stt.MPI_SOURCE, count);
				abort_all(1);
			}
			MPI_Recv(row, count, MPI_CHAR, stt.MPI_SOURCE, stt.MPI_TAG, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			if (stt.MPI_TAG == TAG_DONE) {
				ranks_done++;
				continue;
			}
			if (stt.MPI_TAG == TAG_ERR) {
				fprintf(stderr, "schedlab: sweep: rank %d: %.*s\n", stt.MPI_SOURCE,
					count, row);
				rc = 1;
				break;
			}
			u64 idx;

			memcpy(&idx, row, 8);
			u64 p = position(todo, ntodo, idx);

			if (p >= ntodo || todo[p] != idx || pending[p]) {
				fprintf(stderr, "schedlab: sweep: rank %d sent an unexpected run\n",
					stt.MPI_SOURCE);
				abort_all(1);
			}
			pending[p] = malloc((size_t)count - 8);
			if (!pending[p])
				abort_all(1);
			memcpy(pending[p], row + 8, (size_t)count - 8);
			plen[p] = count - 8;
		}
		if (!rc && mine >= ntodo && ranks_done == size && !pending[written]) {
			fprintf(stderr, "schedlab: sweep: run #%llu never arrived\n",
				(unsigned long long)todo[written]);
			rc = 1;
		}
		while (!rc && written < ntodo && pending[written]) {
			if (sl_append_line(fd, pending[written], (size_t)plen[written])) {
				fprintf(stderr, "schedlab: %s: %s\n", sw->out, strerror(errno));
				rc = 1;
				break;
			}
			free(pending[written]);
			pending[written++] = NULL;
		}
	}
	if (fsync(fd) && !rc) {
		fprintf(stderr, "schedlab: %s: %s\n", sw->out, strerror(errno));
		rc = 1;
	}
	close(fd);
	double el = MPI_Wtime() - t0;

	if (rc) {
		fprintf(stderr, "schedlab: sweep: stopped; %llu finished runs are in %s\n",
			(unsigned long long)ndone + written, sw->out);
		abort_all(rc);
	}
	fprintf(stderr, "schedlab: sweep: %llu runs in %.1f s (%.1f runs/s, %d MPI ranks); %s\n",
		(unsigned long long)ntodo, el, el > 0 ? (double)ntodo / el : 0.0, size, sw->out);
	for (u64 i = 0; i < ntodo; i++)
		free(pending[i]);
	free(pending);
	free(plen);
	free(todo);
	free(row);
	return finish(0);
}
