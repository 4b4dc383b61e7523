# OpenSTA power of a mapped netlist at global activity 1 (one transition per
# clock period, duty 0.5), with the energy of every internal-power arc, for
# txgen power (docs/power.md). Run as: sta -no_splash -exit power.tcl
# Inputs (environment): TXGEN_LIBERTY, TXGEN_NETLIST, TXGEN_TOP, TXGEN_SDC.
# OpenSTA 2.0.17 takes user activities only on input ports (set_power_activity
# -pins fails), so txgen applies each net's measured activity itself: per
# instance the switching power (linear in its output's activity) and, from
# the "power:" debug lines, each arc's energy per transition.

foreach name {TXGEN_LIBERTY TXGEN_NETLIST TXGEN_TOP TXGEN_SDC} {
    if {![info exists ::env($name)] || $::env($name) eq ""} {
        error "power.tcl: environment variable $name is not set"
    }
}
read_liberty $::env(TXGEN_LIBERTY)
read_verilog $::env(TXGEN_NETLIST)
link_design $::env(TXGEN_TOP)
read_sdc $::env(TXGEN_SDC)

set_power_activity -global -activity 1 -duty 0.5
set corner [sta::cmd_corner]
sta::set_debug power 2
foreach inst [get_cells *] {
    set name [get_full_name $inst]
    puts "TXGEN_POWER $name [get_property $inst ref_name] [sta::instance_power $inst $corner]"
    foreach pin [get_pins -of_objects $inst] {
        # a pin tied to a constant has no net (get_full_name fails on it)
        if {![catch {get_full_name [get_nets -of_objects $pin]} net]} {
            puts "TXGEN_PIN $name [get_property $pin lib_pin_name] [get_property $pin direction] $net"
        }
    }
}
sta::set_debug power 0
puts "TXGEN_DESIGN_POWER [lrange [sta::design_power $corner] 0 2]"
