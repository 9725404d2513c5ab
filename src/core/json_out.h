/*
 * JSON output: the one way every command prints a json-c tree (pretty, '/' unescaped), the
 * fixed six-decimal numbers the experiments print (so a figure's text does not depend on how
 * json-c would round a double), and the string escaping of the writers that print JSON by hand.
 */
#ifndef SCHEDLAB_JSON_OUT_H
#define SCHEDLAB_JSON_OUT_H

#include <json-c/json.h>
#include <stdio.h>

/* prints root and a newline to f and releases root; -1 if json-c could not make the text */
int sl_json_print(FILE *f, json_object *root);
/* v as a JSON number printed with "%.6f" */
json_object *sl_json_fixed6(double v);
/* s as a JSON string's contents (the quotes are the caller's): \" \\ and \u00XX for controls */
void sl_json_put_escaped(FILE *f, const char *s);

#endif
