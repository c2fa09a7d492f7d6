# The server's own view of one phase: ops/s per node (reads and writes as the server counts
# them) beside the client's successful ops/s, and (when known) the CPU cores each node kept busy.
# Variables (gnuplot -e): serverfile (one row per sample: elapsed_s, then each node's ops/s,
# then each node's CPU cores; empty where unknown), clientfile (timeseries.csv), outdir, phase,
# runtitle, nodes (space-separated node names, in serverfile's column order), cpu (1 to draw
# the CPU panel).
set datafile separator ","
set terminal svg size 900,(cpu ? 720 : 420) dynamic enhanced font "sans,11" background rgb "white"
set output sprintf("%s/%s-server.svg", outdir, phase)
if (cpu) { set multiplot layout 2,1 }
set grid
set key below noenhanced
set xlabel "elapsed (s)"
set xrange [0:*]
set title sprintf("%s: %s, as the server saw it", runtitle, phase) noenhanced
n = words(nodes)

# Only this phase's rows of timeseries.csv; its header row is skipped.
csel(col) = (strcol(1) eq phase) ? column(col) : NaN

set ylabel "ops/s"
set yrange [0:*]
if (n > 1) {
  plot clientfile every ::1 using 2:(csel(3)) with lines lw 2 title "client: successful ops/s", \
       serverfile using 1:(sum [i=1:n] column(1 + i)) with lines lw 3 lc rgb "black" title "server, all nodes", \
       for [i=1:n] serverfile using 1:(column(1 + i)) with linespoints lw 1.5 pt 7 ps 0.5 \
           title sprintf("server %s: reads + writes/s", word(nodes, i))
} else {
  plot clientfile every ::1 using 2:(csel(3)) with lines lw 2 title "client: successful ops/s", \
       serverfile using 1:2 with linespoints lw 1.5 pt 7 ps 0.5 \
           title sprintf("server %s: reads + writes/s", nodes)
}

if (cpu) {
  set title "server CPU" noenhanced
  set ylabel "CPU (cores busy)"
  plot for [i=1:n] serverfile using 1:(column(1 + n + i)) with linespoints lw 1.5 pt 7 ps 0.5 \
      title word(nodes, i)
  unset multiplot
}
