# Comparison charts. Variables (gnuplot -e): mode ('bars', 'percentiles' or 'time'), out, title,
# base, cand (the sides' names), and
#   bars:        datafile: label, baseline, candidate, candidate low, candidate high, "change"
#   percentiles: datafile: blocks of (x = 1/(1-p), latency us), baseline then candidate per
#                operation; blocks, ops (the operations, space-separated)
#   time:        bfiles, cfiles (timeseries.csv files, space-separated), phase
#   series:      datafile: index, label, value, low, high; cps: change points' x (space-separated),
#                cplabels: their changes (one word each)
set terminal svg size 1000,480 dynamic enhanced font "sans,11" background rgb "white"
set output out
set grid ytics
set key top left noenhanced
set title title noenhanced
base_color = "#1f77b4"
cand_color = "#d62728"

if (mode eq 'bars') {
    set style fill solid 0.8 border -1
    set boxwidth 0.38
    set xtics noenhanced
    set key outside bottom center horizontal
    set yrange [0:*]
    set offsets 0.5, 0.5, graph 0.12, 0
    set ylabel "geometric mean of the runs"
    plot datafile using ($0-0.2):2:xtic(1) with boxes lc rgb base_color title base, \
         '' using ($0+0.2):3 with boxes lc rgb cand_color title cand, \
         '' using ($0+0.2):3:4:5 with yerrorbars lc rgb "black" pt -1 notitle, \
         '' using ($0+0.2):($5 > $3 ? $5 : $3):6 with labels offset 0,1 notitle
}
if (mode eq 'percentiles') {
    set logscale x
    set logscale y
    set xlabel "percentile"
    set ylabel "latency (us)"
    set xtics ("0%%" 1, "90%%" 10, "99%%" 100, "99.9%%" 1000, "99.99%%" 10000, "99.999%%" 100000)
    set key top left
    plot for [i=0:blocks-1] datafile index i using 1:2 with lines lw 2 \
         dt 1+int(i/2)%4 lc rgb (i % 2 == 0 ? base_color : cand_color) title word(ops, int(i/2)+1)." ".(i % 2 == 0 ? base : cand)
}
if (mode eq 'time') {
    set datafile separator ","
    set xlabel "elapsed (s)"
    set ylabel "successful ops/s"
    set yrange [0:*]
    sel(col) = (strcol(1) eq phase) ? column(col) : NaN
    plot for [i=1:words(bfiles)] word(bfiles, i) every ::1 using 2:(sel(3)) with lines lw 1.5 \
             lc rgb base_color title (i == 1 ? base : ""), \
         for [i=1:words(cfiles)] word(cfiles, i) every ::1 using 2:(sel(3)) with lines lw 1.5 \
             lc rgb cand_color title (i == 1 ? cand : "")
}
if (mode eq 'series') {
    set yrange [0:*]
    set xrange [-0.5:*]
    set offsets 0, 0.5, graph 0.1, 0
    set xtics noenhanced
    set ylabel "geometric mean of the runs"
    do for [i=1:words(cps)] {
        x = real(word(cps, i))
        set arrow from x, graph 0 to x, graph 1 nohead dt 2 lw 2 lc rgb cand_color
        set label word(cplabels, i) at x, graph 0.96 center textcolor rgb cand_color
    }
    plot datafile using 1:3:4:5:xtic(2) with yerrorlines lw 2 pt 7 lc rgb base_color notitle
}
