/*
 * Export a simulated run as a trace that existing viewers open, in the format of the writer the
 * registry (src/trace/registry.c) gives for PATH's extension: ftrace text
 * (src/trace/ftrace_text_writer.c) or, for a path ending in .json, Chrome Trace Event JSON
 * (src/trace/chrome_json_writer.c). The exporter is a subscriber of the event stream, so the
 * trace cannot disagree with the printed figures. It writes through core/outfile.h (a mkstemp
 * temporary beside PATH, renamed to PATH only when the run succeeded): never a half file.
 */
#ifndef SCHEDLAB_EXPORT_H
#define SCHEDLAB_EXPORT_H

#include <schedlab/event.h>
#include <stdio.h>

struct sl_sim;
struct sl_exporter;

struct sl_exporter *sl_export_open(const char *path, struct sl_sim *sim, char *err, size_t errlen);
void sl_export_event(void *ctx, const struct sl_event *ev);
/* Finish: with ok, move the file into place; otherwise remove it. Returns 0 or -1 (err set). */
int sl_export_close(struct sl_exporter *x, bool ok, char *err, size_t errlen);
/* A write failed (the run was stopped then): close with ok to get the message naming the file. */
bool sl_export_failed(const struct sl_exporter *x);

#endif
