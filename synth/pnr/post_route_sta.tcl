# txgen post-route timing: synth/sta.tcl unchanged (same SDC, same reports,
# recovery/removal off, TXGEN_STA_DONE marker) on the routed netlist, with the
# routed nets' parasitics read right after link_design.
# Run as: sta -no_splash -exit post_route_sta.tcl (sta.tcl beside it)
# Inputs (environment): those of sta.tcl (TXGEN_TOP, TXGEN_NETLIST = the
# routed netlist, TXGEN_LIBERTY, TXGEN_SDC) and
#   TXGEN_SPEF  parasitics of the routed nets (txgen writes them from
#               qrouter's RC file; see docs/pnr.md)
# The clock stays ideal, as before layout: the figures differ by the wires
# of the data paths only.

rename link_design txgen_link_design_without_parasitics

proc link_design {args} {
    set linked [txgen_link_design_without_parasitics {*}$args]
    if {$linked} {
        read_spef [txgen_env TXGEN_SPEF]
        puts "TXGEN_RESULT parasitics_file=[txgen_env TXGEN_SPEF]"
    }
    return $linked
}

# After the SDC: every register must be clocked through the clock and its
# buffer tree. A register the clock does not reach is not timed at all, and
# would make the routed design look faster; txgen fails on this warning.
rename read_sdc txgen_read_sdc_unchecked

proc read_sdc {args} {
    txgen_read_sdc_unchecked {*}$args
    check_setup -no_clock
}

source [file join [file dirname [file normalize [info script]]] sta.tcl]
