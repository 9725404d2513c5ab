/*
 * Text from an input quoted in a message, made safe for a terminal: a control byte (an escape
 * sequence's ESC, a carriage return that would overwrite the line, a tab) is written
 * as \xNN, and everything else as it is (UTF-8 passes through). A message is one line.
 */
#ifndef SCHEDLAB_ESCAPE_H
#define SCHEDLAB_ESCAPE_H

#include <stdio.h>

/* "schedlab: MESSAGE\n" on f, the message escaped. */
void sl_say(FILE *f, const char *msg);

#endif
