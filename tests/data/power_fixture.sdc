# power_fixture: 2.5 ns clock, a 0.02 pF load on the output.
create_clock -name clk -period 2.5 [get_ports clk_i]
set_input_delay 0.3 -clock clk [get_ports a_i]
set_output_delay 0.3 -clock clk [get_ports y_o]
set_driving_cell -lib_cell INVX1 -pin Y [get_ports a_i]
set_load 0.02 [get_ports y_o]
