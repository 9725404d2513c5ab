/* schedlab trace-workload: what the trace workload extracts from a trace. */
#ifndef SCHEDLAB_CLI_TRACE_WORKLOAD_H
#define SCHEDLAB_CLI_TRACE_WORKLOAD_H

int sl_cli_trace_workload(int argc, char **argv);

#endif
