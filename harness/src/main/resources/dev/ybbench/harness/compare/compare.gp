# Comparison charts. Variables (gnuplot -e): mode ('bars' or 'time'), out, base, cand, and
# for bars: datafile (label, baseline, candidate), ylabel; for time: bfile, cfile (timeseries.csv),
# phase, title.
set terminal svg size 1000,480 dynamic enhanced font "sans,11" background rgb "white"
set output out
set grid ytics
set key top left noenhanced

if (mode eq 'bars') {
    set style data histograms
    set style histogram clustered gap 1
    set style fill solid 0.8 border -1
    set boxwidth 0.9
    set xtics rotate by -40 noenhanced
    set bmargin 9
    set rmargin 10
    set ylabel ylabel
    set yrange [0:*]
    set title sprintf("baseline vs candidate: %s", ylabel) noenhanced
    plot datafile using 2:xtic(1) title base, '' using 3 title cand
} else {
    set datafile separator ","
    set xlabel "elapsed (s)"
    set ylabel "successful ops/s"
    set yrange [0:*]
    set title sprintf("%s: throughput over time", title) noenhanced
    sel(col) = (strcol(1) eq phase) ? column(col) : NaN
    plot bfile every ::1 using 2:(sel(3)) with lines lw 2 title base, \
         cfile every ::1 using 2:(sel(3)) with lines lw 2 title cand
}
