# TPC-C's charts of one run.
# Variables (gnuplot -e): mode ('time' or 'works'), datafile, outdir, runtitle; for 'time' also
# phase, types (the transaction types in the file, in its column order) and neworders (1 when the
# phase ran New-Orders, so that it has a tpmC).
set datafile separator ","
set terminal svg size 900,420 dynamic enhanced font "sans,11" background rgb "white"
set grid
set key outside right top

# mode 'time': one row per second: elapsed_s, tpmC, then per type: transactions/s, p90 ms.
if (mode eq 'time') {
  set xlabel "elapsed (s)"
  set yrange [0:*]
  if (neworders) {
    set output sprintf("%s/%s-tpmC.svg", outdir, phase)
    set title sprintf("%s: %s, New-Orders per minute", runtitle, phase) noenhanced
    set ylabel "tpmC"
    plot datafile every ::1 using 1:2 with lines lw 2 title "tpmC"
  }
  set output sprintf("%s/%s-types.svg", outdir, phase)
  set title sprintf("%s: %s, throughput per transaction type", runtitle, phase) noenhanced
  set ylabel "transactions/s"
  plot for [i=1:words(types)] datafile every ::1 using 1:(column(1 + 2 * i)) with lines lw 2 title word(types, i)
  set output sprintf("%s/%s-p90.svg", outdir, phase)
  set title sprintf("%s: %s, 90th percentile response time per type", runtitle, phase) noenhanced
  set ylabel "p90 (ms)"
  set yrange [*:*]
  set logscale y
  plot for [i=1:words(types)] datafile every ::1 using 1:(column(2 + 2 * i)) with lines lw 2 title word(types, i)
}

# mode 'works': one row per work: its label, transactions/s (the YugabyteDB 2.1 post's table).
if (mode eq 'works') {
  set output sprintf("%s/works.svg", outdir)
  set title sprintf("%s: transactions/s of each work", runtitle) noenhanced
  set ylabel "transactions/s"
  set yrange [0:*]
  set style fill solid 0.8
  set boxwidth 0.6
  unset key
  plot datafile every ::1 using 0:2:xtic(1) with boxes lc rgb "#4477aa", \
       datafile every ::1 using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.8
}
