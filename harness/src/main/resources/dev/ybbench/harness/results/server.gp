# The server's own view of one phase: ops/s per node (reads and writes as the server counts
# them) beside the client's successful ops/s, and (when known) the CPU cores each node kept busy.
# Variables (gnuplot -e): serverfile (server-timeseries.csv), clientfile (timeseries.csv),
# outdir, phase, runtitle, nodes (space-separated node names), cpu (1 to draw the CPU panel).
set datafile separator ","
set terminal svg size 900,(cpu ? 720 : 420) dynamic enhanced font "sans,11" background rgb "white"
set output sprintf("%s/%s-server.svg", outdir, phase)
if (cpu) { set multiplot layout 2,1 }
set grid
set key top right noenhanced
set xlabel "elapsed (s)"
set xrange [0:*]
set title sprintf("%s: %s, as the server saw it", runtitle, phase) noenhanced

# Only this phase's rows (and one node's); header rows are skipped.
csel(col) = (strcol(1) eq phase) ? column(col) : NaN
nsel(n, col) = (strcol(1) eq phase && strcol(3) eq n) ? column(col) : NaN

set ylabel "ops/s"
set yrange [0:*]
plot clientfile every ::1 using 2:(csel(3)) with lines lw 2 title "client: successful ops/s", \
     for [n in nodes] serverfile every ::1 using 2:(nsel(n, 4) + nsel(n, 5)) with linespoints lw 1.5 \
         title sprintf("server %s: reads + writes/s", n)

if (cpu) {
  set title "server CPU" noenhanced
  set ylabel "CPU (cores busy)"
  plot for [n in nodes] serverfile every ::1 using 2:(nsel(n, 10)) with linespoints lw 1.5 title n
  unset multiplot
}
