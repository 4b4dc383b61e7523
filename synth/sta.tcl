# txgen static timing with OpenSTA (2019 snapshot shipped by Debian).
# Run as: sta -no_splash -exit sta.tcl
# Inputs (environment):
#   TXGEN_TOP      top module name
#   TXGEN_NETLIST  gate-level Verilog written by yosys_synth.tcl
#   TXGEN_LIBERTY  standard-cell liberty
#   TXGEN_SDC      constraints (clock, I/O delays, driving cell, load)
# Output: the worst max-delay path report, then "TXGEN_RESULT key=value"
# lines (times in ns), "worst_slack_ns=..." and finally "TXGEN_STA_DONE".
# This sta always exits with status 0, even after errors or "exit 1", so a
# caller must treat a missing TXGEN_STA_DONE (or a TXGEN_ERROR line) as
# failure.

proc txgen_env {name} {
    if {![info exists ::env($name)] || [string trim $::env($name)] eq ""} {
        error "environment variable $name is not set"
    }
    return [string trim $::env($name)]
}

proc txgen_result {key value} {
    puts "TXGEN_RESULT $key=$value"
}

# PathEnd times are in seconds; report in ns.
proc txgen_ns {seconds} {
    return [format %.6f [expr {$seconds * 1e9}]]
}

# The data part of a path, startpoint first. PathRef pins run from the
# endpoint back to the source of the path, which for a register startpoint is
# the clock port: drop the clock network up to the register's clock pin.
proc txgen_data_pins {path_end} {
    set pins [lreverse [[$path_end path] pins]]
    set first 0
    while {$first + 1 < [llength $pins] && [sta::pin_is_clock [lindex $pins [expr {$first + 1}]]]} {
        incr first
    }
    return [lrange $pins $first end]
}

# Cells strictly between startpoint and endpoint: the start register's
# clock-to-Q arc and the end register are not logic levels.
proc txgen_logic_depth {data_pins} {
    set cells [dict create]
    foreach pin $data_pins {
        if {![$pin is_top_level_port]} {
            dict set cells [get_full_name [$pin instance]] 1
        }
    }
    foreach edge_pin [list [lindex $data_pins 0] [lindex $data_pins end]] {
        if {![$edge_pin is_top_level_port]} {
            dict unset cells [get_full_name [$edge_pin instance]]
        }
    }
    return [dict size $cells]
}

# The worst path over all path groups, or "" when nothing is constrained.
proc txgen_worst_path_end {} {
    set worst ""
    foreach path_end [find_timing_paths -path_delay max -group_count 1 -sort_by_slack] {
        if {$worst eq "" || [$path_end slack] < [$worst slack]} {
            set worst $path_end
        }
    }
    return $worst
}

# Submodule (non-leaf) instances below inst, at every level.
proc txgen_submodule_count {inst} {
    set count 0
    set children [$inst child_iterator]
    while {[$children has_next]} {
        set child [$children next]
        if {![$child is_leaf]} {
            incr count [expr {1 + [txgen_submodule_count $child]}]
        }
    }
    $children finish
    return $count
}

# What link_design built: leaf cells and registers over the whole hierarchy,
# and the submodule instances (0 for a flat netlist). A hierarchical run
# checks these against Yosys' design-hierarchy totals, so a netlist reader
# that dropped part of the hierarchy cannot go unnoticed.
proc txgen_report_linked {} {
    set leaves [sta::leaf_instance_iterator]
    set cells 0
    while {[$leaves has_next]} {
        $leaves next
        incr cells
    }
    $leaves finish
    txgen_result linked_cells $cells
    txgen_result linked_registers [llength [all_registers]]
    txgen_result linked_submodules [txgen_submodule_count [sta::top_instance]]
}

# Hierarchical netlists: ABC maps each module alone against a 0.02 pF port
# load, so a top-level net that reaches the inputs of many submodule
# instances (a broadcast such as a shootdown key to every TLB) is left on one
# driver, which flattened mapping or placement would buffer. Such nets get a
# tree of `cell`, at most `group` loads per buffer, before timing; the
# buffers are reported (count and area) apart from Yosys' cell figures.
set txgen_boundary_buffer BUFX4
set txgen_boundary_group 4
set txgen_buffer_serial 0

# Moves `loads` of `net` behind buffers, `group` per buffer, then the
# buffers' inputs the same way until the net drives at most `group` of them.
proc txgen_buffer_tree {net loads cell group} {
    global txgen_buffer_serial
    set made 0
    while {[llength $loads] > $group} {
        set inputs {}
        for {set i 0} {$i < [llength $loads]} {incr i $group} {
            set name "txgen_fanout_buf[incr txgen_buffer_serial]"
            make_instance $name $cell
            make_net ${name}_y
            set out [get_nets ${name}_y]
            foreach pin [lrange $loads $i [expr {$i + $group - 1}]] {
                disconnect_pin $net $pin
                connect_pin $out $pin
            }
            connect_pin $out [get_pins $name/Y]
            connect_pin $net [get_pins $name/A]
            lappend inputs [get_pins $name/A]
            incr made
        }
        set loads $inputs
    }
    return $made
}

# Buffers every top-level net with more than the group's submodule input
# pins, except the clock and the reset (rst_ni), which are ideal networks
# here; returns the number of buffers made.
proc txgen_buffer_boundary_fanout {} {
    global txgen_boundary_buffer txgen_boundary_group
    set ideal [list rst_ni]
    foreach clk [all_clocks] {
        foreach source [get_property $clk sources] {
            lappend ideal [get_full_name $source]
        }
    }
    set made 0
    foreach net [get_nets *] {
        if {[get_full_name $net] in $ideal} {
            continue
        }
        set loads {}
        foreach pin [get_pins -quiet -of_objects $net] {
            if {![[$pin instance] is_leaf] && [get_property $pin direction] eq "input"} {
                lappend loads $pin
            }
        }
        if {[llength $loads] > $txgen_boundary_group} {
            incr made [txgen_buffer_tree $net $loads $txgen_boundary_buffer $txgen_boundary_group]
        }
    }
    return $made
}

# A cell's "area :" in the liberty file (this OpenSTA does not expose it).
proc txgen_liberty_cell_area {liberty cell} {
    set fh [open $liberty]
    set text [read $fh]
    close $fh
    set pattern [format {cell \(%s\) \{[^\}]*area\s*:\s*([0-9.]+)} $cell]
    if {![regexp $pattern $text -> area]} {
        error "no area for cell $cell in $liberty"
    }
    return $area
}

proc txgen_report_boundary_buffers {} {
    global txgen_boundary_buffer
    set made [txgen_buffer_boundary_fanout]
    set area [txgen_liberty_cell_area [txgen_env TXGEN_LIBERTY] $txgen_boundary_buffer]
    txgen_result boundary_buffers $made
    txgen_result boundary_buffer_area_um2 [format %.1f [expr {$made * $area}]]
}

proc txgen_report_worst_path {} {
    set worst [txgen_worst_path_end]
    if {$worst eq ""} {
        error "no constrained timing path (check the clock port and the SDC)"
    }
    set pins [txgen_data_pins $worst]
    set start_pin [lindex $pins 0]
    set end_pin   [lindex $pins end]
    txgen_result path_start [get_full_name $start_pin]
    txgen_result path_end [get_full_name $end_pin]
    txgen_result path_start_is_input [$start_pin is_top_level_port]
    txgen_result path_end_is_output [$end_pin is_top_level_port]
    txgen_result data_arrival_ns [txgen_ns [$worst data_arrival_time]]
    txgen_result data_required_ns [txgen_ns [$worst data_required_time]]
    txgen_result path_slack_ns [txgen_ns [$worst slack]]
    txgen_result logic_depth_cells [txgen_logic_depth $pins]
}

proc txgen_main {} {
    read_liberty [txgen_env TXGEN_LIBERTY]
    read_verilog [txgen_env TXGEN_NETLIST]
    set top [txgen_env TXGEN_TOP]
    # link_design reports a missing module by returning 0, not by an error.
    if {![link_design $top]} {
        error "link_design $top failed"
    }
    read_sdc [txgen_env TXGEN_SDC]

    # The asynchronous reset is assumed to come from a reset synchronizer
    # through a buffered tree, like the ideal clock. Unbuffered, rst_ni driven
    # by one INVX1 into hundreds of DFFSR R pins gives recovery "paths" of
    # tens of ns that say nothing about the logic (the public reference
    # figures cannot include them: a 256-flop async-reset arbiter at 2.67 ns).
    # Setup checks on D pins and output delays are all still timed.
    sta::set_recovery_removal_checks_enabled 0

    # Linked before the boundary buffers: these figures are checked against
    # Yosys' netlist.
    txgen_report_linked
    if {[txgen_submodule_count [sta::top_instance]] > 0} {
        txgen_report_boundary_buffers
    }
    report_checks -path_delay max -digits 3 -fields {cap slew}
    txgen_report_worst_path
    puts "worst_slack_ns=[sta::worst_slack -max]"
}

# Inside one proc an error stops the run; at the top level this sta would
# print it and carry on with the next command.
if {[catch {txgen_main} message]} {
    puts "TXGEN_ERROR $message"
} else {
    puts "TXGEN_STA_DONE"
}
