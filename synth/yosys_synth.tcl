# txgen logic synthesis onto osu018 with Yosys 0.23.
# Run as: yosys -c yosys_synth.tcl
# Inputs (environment):
#   TXGEN_TOP        top module name
#   TXGEN_VERILOG    space-separated Verilog-2005 files
#   TXGEN_LIBERTY    standard-cell liberty (osu018_stdcells.lib)
#   TXGEN_ABC_DELAY_PS  ABC delay target in ps: the clock period less the SDC's
#                       input and output delays, which ABC does not see
#   TXGEN_OUT_DIR    directory for abc.constr, stat.txt and netlist.v
#   TXGEN_HIER       optional; 1 keeps the module hierarchy (txgen synth --hier)
# The flow matches the one used for the public-RTL reference figures
# (docs: qor-targets): synth -flatten, dfflibmap, abc -D PERIOD with an INVX1
# driving cell and a 0.02 pF load. With TXGEN_HIER=1 every step runs on each
# unique module instead (abc maps each once, with the same -D), and stat adds
# the design-hierarchy totals over all instances.

proc txgen_env {name} {
    if {![info exists ::env($name)] || [string trim $::env($name)] eq ""} {
        error "yosys_synth.tcl: environment variable $name is not set"
    }
    return [string trim $::env($name)]
}

# Stage markers make the log easy to split and show where a failure happened.
proc txgen_stage {name} {
    yosys log "TXGEN_STAGE $name"
}

set top       [txgen_env TXGEN_TOP]
set sources   [regexp -all -inline {\S+} [txgen_env TXGEN_VERILOG]]
set liberty   [txgen_env TXGEN_LIBERTY]
set delay_ps  [txgen_env TXGEN_ABC_DELAY_PS]
set out_dir   [txgen_env TXGEN_OUT_DIR]
set hier      [expr {[info exists ::env(TXGEN_HIER)] && [string trim $::env(TXGEN_HIER)] eq "1"}]

if {![string is double -strict $delay_ps] || $delay_ps <= 0} {
    error "yosys_synth.tcl: TXGEN_ABC_DELAY_PS must be a positive number, got '$delay_ps'"
}
file mkdir $out_dir
set constr_file  [file join $out_dir abc.constr]
set stat_file    [file join $out_dir stat.txt]
set netlist_file [file join $out_dir netlist.v]

# ABC sees every primary input (ports and flop outputs) driven by INVX1 and
# every primary output loaded with 0.02 pF. Passing -constr also makes Yosys'
# default ABC script end in "buffer; upsize; dnsize; stime", so high-fanout
# nets get buffered without a custom script.
set fh [open $constr_file w]
puts $fh "set_driving_cell INVX1"
puts $fh "set_load 0.02"
close $fh

txgen_stage read
# Liberty cells first as black boxes: check -assert needs their pin directions.
yosys read_liberty -lib $liberty
foreach src $sources {
    yosys read_verilog $src
}

txgen_stage synth
# Yosys names the cells of the parsed RTL after their source lines, and later
# passes' order follows those names: a change of layout alone (a wrapped line,
# a comment) moved ABC's result by up to 1.6 % area and 0.13 ns. Numbering them
# in creation order first makes the netlist depend on the circuit only
# (docs/synthesis.md, "ABC's spread").
yosys hierarchy -top $top
yosys proc
yosys rename -enumerate
# Up to synth's own "check" stage (hierarchy -check, stat, check): diagnostics
# that change nothing and that check -assert repeats on the mapped netlist.
if {$hier} {
    yosys synth -top $top -run begin:check
} else {
    yosys synth -top $top -flatten -run begin:check
}

txgen_stage dfflibmap
yosys dfflibmap -liberty $liberty

txgen_stage abc
yosys abc -D $delay_ps -liberty $liberty -constr $constr_file

txgen_stage name
# Name flip-flops after the RTL register bits they drive, so that timing
# reports say "tag_q[3]_reg" instead of "_1234_": the only names the reports
# need. rename -wire looks at each flip-flop's own output once; autoname,
# which it replaces, scored every connected wire in rounds (17 s of a
# 256-entry walk_sched run). The purge before write drops the other names.
yosys rename -wire -suffix _reg t:DFFPOSX1 t:DFFNEGX1 t:DFFSR t:LATCH

txgen_stage check
yosys check -assert

txgen_stage stat
if {$hier} {
    # -top: a "design hierarchy" section with the totals over every instance;
    # each module's own section counts its submodule instances as cells.
    yosys tee -o $stat_file stat -liberty $liberty -top $top
} else {
    yosys tee -o $stat_file stat -liberty $liberty
}

txgen_stage write
# Single-bit internal nets and simple assignment targets: OpenSTA's netlist
# reader rejects the concatenated assignments Yosys writes for partly aliased
# vectors (internal nets, and output ports whose bits repeat other bits).
# Ports stay vectors; OpenSTA reads the concatenations in instance port
# connections of a hierarchical netlist.
yosys splitnets
yosys opt_clean -purge
yosys write_verilog -noattr -simple-lhs $netlist_file

txgen_stage done
