#!/usr/bin/env perl
# Mutation points of generated Verilog, for scripts/mutate.sh.
#
#   mutate_rtl.pl list [--seed S] [--count N] FILE...
#       One line per point: FILE LINE COL KIND FROM TO (tab-separated; COL is
#       the 0-based offset of FROM in the line). With --count, N points drawn
#       at random, each kind in turn (seeded, so a run can be repeated),
#       printed in file order.
#   mutate_rtl.pl apply FILE LINE COL FROM TO
#       Replaces FROM at LINE:COL by TO in place; fails if FROM is not there.
#
# Kinds: op (operator swapped), const (a constant's lowest bit flipped: off by
# one), arms (the arms of a mux swapped), cond (a condition inverted), not (an
# inversion removed), reset (a reset value's lowest bit flipped). Only code
# that txgen's writer prints is considered: continuous assignments, register
# reset values and enables. Formal-only code, index expressions and
# generate-loop headers are left alone, so a mutant keeps every width.
use strict;
use warnings;

my $operand = qr/[A-Za-z_]\w*(?:\[[^\]]*\])?|\d+'[bdh][0-9a-fA-F]+/;
my %swap_op = ('&' => '|', '|' => '&', '^' => '|', '+' => '-', '-' => '+',
               '==' => '!=', '!=' => '==', '<' => '<=', '<=' => '<', '>' => '>=', '>=' => '>');

# Bracket depth at each offset of $text: points inside [...] are skipped.
sub depths {
  my ($text) = @_;
  my @depth;
  my $d = 0;
  for my $c (split //, $text) {
    push @depth, $d;
    $d++ if $c eq '[';
    $d-- if $c eq ']';
  }
  return \@depth;
}

sub flip_constant {
  my ($const) = @_;
  my ($width, $base, $digits) = $const =~ /^(\d+)'([bdh])(.+)$/ or return;
  my $last = substr($digits, -1);
  my $flipped = $base eq 'b' ? ($last eq '0' ? '1' : '0')
              : $base eq 'd' ? ($last ^ 1)
              : sprintf('%x', hex($last) ^ 1);
  my $out = substr($digits, 0, -1) . $flipped;
  return if $base eq 'd' && $out >= 2 ** $width;
  return "$width'$base$out";
}

# Points of the right-hand side of one assign, $offset = where it starts.
sub rhs_points {
  my ($rhs, $offset) = @_;
  my $depth = depths($rhs);
  my @points;
  my $add = sub {
    my ($pos, $kind, $from, $to) = @_;
    push @points, [$offset + $pos, $kind, $from, $to] if $depth->[$pos] == 0;
  };
  while ($rhs =~ / (==|!=|<=|>=|<|>|&|\||\^|\+|-) /g) {
    $add->($-[1], 'op', $1, $swap_op{$1});
  }
  while ($rhs =~ /\b(\d+'[bdh][0-9a-fA-F]+)/g) {
    my $to = flip_constant($1);
    $add->($-[1], 'const', $1, $to) if defined $to;
  }
  while ($rhs =~ /(?<=\? )(($operand) : ($operand))(?=[;,})])/g) {
    $add->($-[1], 'arms', $1, "$3 : $2") if $2 ne $3;
  }
  while ($rhs =~ /(?:^|(?<=: )|(?<=, )|(?<=\{)|(?<=\())(($operand) \? )/g) {
    $add->($-[1], 'cond', $1, "!$2 ? ");
  }
  while ($rhs =~ /(~)(?=[A-Za-z_(])/g) {
    $add->($-[1], 'not', '~', '');
  }
  return @points;
}

# $continued: the line continues an assign that an earlier line began (the
# writer breaks long expressions over lines; no part select spans two lines).
sub line_points {
  my ($code, $continued) = @_;
  if ($continued) {
    return sort { $a->[0] <=> $b->[0] } rhs_points($code, 0);
  }
  if ($code =~ /^(\s*assign\s+[^=]*=\s*)(.*)$/) {
    return sort { $a->[0] <=> $b->[0] } rhs_points($2, length $1);
  }
  if ($code =~ /^(\s*\w+(?:\[[^\]]*\])*\s*<=\s*)(\d+'[bdh][0-9a-fA-F]+)\s*;/) {
    my $to = flip_constant($2);
    return defined $to ? ([length $1, 'reset', $2, $to]) : ();
  }
  if ($code =~ /^(\s*(?:end\s+)?(?:else\s+)?if\s*)(\((.*?)\))(?=\s*(?:begin)?\s*$)/ && $3 ne '!rst_ni') {
    return ([length $1, 'cond', $2, "(!$2)"]);
  }
  return ();
}

sub file_points {
  my ($file) = @_;
  open my $fh, '<', $file or die "$file: $!\n";
  my @points;
  my $formal = 0;
  my $in_assign = 0;
  while (my $line = <$fh>) {
    chomp $line;
    if ($line =~ /^\s*`ifdef\s+FORMAL/) { $formal = 1; next; }
    if ($formal) { $formal = 0 if $line =~ /^\s*`endif/; next; }
    (my $code = $line) =~ s{\s*//.*$}{};
    push @points, map { [$file, $., @$_] } line_points($code, $in_assign);
    $in_assign = ($in_assign || $code =~ /^\s*assign\s/) && $code !~ /;\s*$/ ? 1 : 0;
  }
  return @points;
}

sub shuffled {
  my @items = @_;
  for my $i (reverse 1 .. $#items) {
    my $j = int rand($i + 1);
    @items[$i, $j] = @items[$j, $i];
  }
  return @items;
}

# Indices of $count points, taken from each kind in turn so that rare kinds
# (reset values, mux arms) are not drowned by the many operators.
sub sample_by_kind {
  my ($points, $count) = @_;
  my %by_kind;
  push @{ $by_kind{ $points->[$_][3] } }, $_ for 0 .. $#$points;
  my @queues = map { [shuffled(@{ $by_kind{$_} })] } sort keys %by_kind;
  my @chosen;
  while (@chosen < $count) {
    for my $queue (@queues) {
      push @chosen, shift @$queue if @$queue && @chosen < $count;
    }
  }
  return @chosen;
}

sub list {
  my ($seed, $count, @files);
  while (@_) {
    my $arg = shift;
    if ($arg eq '--seed') { $seed = shift; }
    elsif ($arg eq '--count') { $count = shift; }
    else { push @files, $arg; }
  }
  my @points = map { file_points($_) } @files;
  if (defined $count && $count < @points) {
    srand(defined $seed ? $seed : 1);
    @points = @points[sort { $a <=> $b } sample_by_kind(\@points, $count)];
  }
  print join("\t", @$_), "\n" for @points;
}

sub apply {
  my ($file, $line, $col, $from, $to) = @_;
  die "usage: apply FILE LINE COL FROM TO\n" unless defined $to;
  open my $in, '<', $file or die "$file: $!\n";
  my @lines = <$in>;
  close $in;
  my $text = \$lines[$line - 1];
  die "$file:$line:$col: '$from' is not there\n"
    unless defined $$text && substr($$text, $col, length $from) eq $from;
  substr($$text, $col, length $from) = $to;
  open my $out, '>', $file or die "$file: $!\n";
  print $out @lines;
  close $out or die "$file: $!\n";
}

my $command = shift // '';
if ($command eq 'list') { list(@ARGV); }
elsif ($command eq 'apply') { apply(@ARGV); }
else { die "usage: $0 list [--seed S] [--count N] FILE... | apply FILE LINE COL FROM TO\n"; }
