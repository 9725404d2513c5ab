# The completions zsh offers for a command line, one a line: zsh -f zsh_complete.zsh DIR LINE
# (DIR holds _schedlab). An interactive zsh in a pseudo-terminal (zpty) loads the completion
# system, binds Tab to a widget that logs every candidate compadd receives, and is sent LINE
# and a Tab; the lines between the widget's markers are printed. Used by tests/cli_docs.sh.
zmodload zsh/zpty || exit 1
zpty z zsh -f -i
zpty -w z "PROMPT= ; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
# the markers are joined at run time, so the terminal's echo of this line holds neither
zpty -w z 'zle -C {,,}complete-word; complete-word () { print "@BE""GIN@"; compadd () {
	builtin compadd -O __hits "$@"; print -l -- "" "${(@)^__hits}"; builtin compadd "$@" };
	_main_complete; print "@EN""D@" }; bindkey "^I" complete-word'
zpty -w -n z "$2"$'\t'
local out all
for i in {1..100}; do
	zpty -r -t z out && all+=$out
	[[ $all == *@END@* ]] && break
	sleep 0.05
done
all=${all##*@BEGIN@}
print -r -- "${all%%@END@*}"
