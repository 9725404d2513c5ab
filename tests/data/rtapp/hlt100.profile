# one halt state whose exit takes 100 us (tests/rtapp.sh: exit_irq_wait)
name hlt100
busy_power_mw 10000
state POLL 0 0 10000 poll time_valid
state HLT 100 100 2000 time_valid
