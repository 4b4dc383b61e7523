# txgen pnr: hands txgen's own mapped netlist (txgen synth's netlist.v) to
# qflow instead of letting qflow synthesize the RTL again, so the placed and
# routed netlist is the one the pre-layout figures were timed on.
# Run by Yosys (read_netlist.ys) in qflow's source directory.
# Inputs (environment):
#   TXGEN_TOP      top module name
#   TXGEN_NETLIST  gate-level Verilog written by synth/yosys_synth.tcl
#   TXGEN_LIBERTY  standard-cell liberty
# Output: <top>_mapped.blif, which qflow's synthesize.sh post-processes
# (ypostproc, blif2Verilog) as if its own Yosys run had written it.

proc txgen_env {name} {
    if {![info exists ::env($name)] || [string trim $::env($name)] eq ""} {
        error "read_netlist.tcl: environment variable $name is not set"
    }
    return [string trim $::env($name)]
}

set top [txgen_env TXGEN_TOP]
yosys read_liberty -lib -ignore_miss_dir -setattr blackbox [txgen_env TXGEN_LIBERTY]
yosys read_verilog [txgen_env TXGEN_NETLIST]
yosys hierarchy -check -top $top

# An output port that repeats an internal net (a register's output, "assign
# count_o = count_q;") is an alias, which BLIF can only write as a buffer
# cell: 27 extra BUFX2 on a 114-cell design. Hiding the internal names lets
# opt_clean keep the port names alone, so the BLIF holds exactly the mapped
# cells; rename -enumerate gives the hidden nets short names that every qflow
# tool accepts. Not the default _12_: the mapped cells are named so, and a net
# may not share a cell's name (Yosys asserts count_id(wire->name) == 0).
yosys rename -hide w:*
yosys opt_clean -purge
yosys rename -enumerate -pattern txgen_n%

# -buf is still needed for whatever aliases remain (two ports on one net, an
# input port straight to an output port); txgen pnr reports any cells the
# routed netlist has beyond the mapped netlist's.
# -cname: each cell's name on a ".cname" line after it. qflow keeps the lines
# but names its instances CELL_n (the n-th cell of that type); txgen pnr maps
# them back through these names to report paths as txgen synth does.
yosys write_blif -cname -buf BUFX2 A Y ${top}_mapped.blif
yosys stat
