#include "core/json_out.h"

int sl_json_print(FILE *f, json_object *root)
{
	const char *txt = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (txt)
		fprintf(f, "%s\n", txt);
	json_object_put(root);
	return txt ? 0 : -1;
}

json_object *sl_json_fixed6(double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.6f", v);
	return json_object_new_double_s(v, buf);
}

void sl_json_put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}
