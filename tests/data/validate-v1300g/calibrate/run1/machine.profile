# schedlab calibrate: this machine's idle states with the measured exit latency
# of a halted vCPU (cross-CPU hand-off 36695 ns - same-CPU 1084 ns - IPI); a 1 ms
# sleep woke 93764 ns late.
# Power as vm-haltpoll's estimates (10 W running or polling, 2 W halted).
name haltpoll-calibrated
busy_power_mw 10000
state POLL 0 0 10000 poll time_valid
state HLT 34.611 34.611 2000 time_valid
