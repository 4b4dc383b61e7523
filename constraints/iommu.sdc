# iommu timing constraints (L2-TLB and IOMMU): osu018, 2.5 ns clock (25 FO4).
create_clock -name clk -period 2.5 [get_ports clk_i]
set_input_delay 0.3 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]
set_output_delay 0.3 -clock clk [all_outputs]
set_driving_cell -lib_cell INVX1 -pin Y [delete_from_list [all_inputs] [get_ports clk_i]]
set_load 0.02 [all_outputs]
