#include "core/escape.h"

void sl_say(FILE *f, const char *msg)
{
	static const char hex[] = "0123456789abcdef";

	fputs("schedlab: ", f);
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			char e[5] = {'\\', 'x', hex[*p >> 4], hex[*p & 15], '\0'};

			fputs(e, f);
		} else {
			fputc(*p, f);
		}
	}
	fputc('\n', f);
}
