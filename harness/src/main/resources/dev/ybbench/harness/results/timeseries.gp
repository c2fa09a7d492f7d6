# Throughput and latency over time for one phase of one run.
# Variables (gnuplot -e): datafile (timeseries.csv), outdir, phase, runtitle.
set datafile separator ","
set terminal svg size 900,420 dynamic enhanced font "sans,11" background rgb "white"
set grid
set key top right
set xlabel "elapsed (s)"
set title sprintf("%s: %s", runtitle, phase) noenhanced

# Only this phase's rows; the header row is skipped.
sel(col) = (strcol(1) eq phase) ? column(col) : NaN

set output sprintf("%s/%s-throughput.svg", outdir, phase)
set ylabel "successful ops/s"
set yrange [0:*]
plot datafile every ::1 using 2:(sel(3)) with lines lw 2 title "throughput", \
     datafile every ::1 using 2:(sel(7)) with impulses title "errors/s"

set output sprintf("%s/%s-latency.svg", outdir, phase)
set ylabel "latency (ms)"
set yrange [0:*]
plot datafile every ::1 using 2:(sel(4)/1000.0) with lines lw 2 title "p50", \
     datafile every ::1 using 2:(sel(5)/1000.0) with lines lw 2 title "p95", \
     datafile every ::1 using 2:(sel(6)/1000.0) with lines lw 2 title "p99"
