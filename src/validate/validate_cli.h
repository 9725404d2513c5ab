/* `schedlab validate` and `schedlab calibrate` command lines. */
#ifndef SCHEDLAB_VALIDATE_CLI_H
#define SCHEDLAB_VALIDATE_CLI_H

int sl_cli_validate(int argc, char **argv);
int sl_cli_calibrate(int argc, char **argv);

#endif
