# written by hand for tests/machine_for_boot.sh: 6.18.44-fc-v1300's
name haltpoll-calibrated
busy_power_mw 10000
state POLL 0 0 10000 poll time_valid
state HLT 10.000 10.000 2000 time_valid
