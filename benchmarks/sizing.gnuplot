# Disk use of the sessions table while every session is rewritten every few seconds (benchmark part sizing, 7b):
# bytes of its files and of the region's memstore as multiples of the live data, and its store files, over time.
# Called by run.sh:  gnuplot -e "data='.../sizing-rewrite.csv'; out='.../sizing-rewrite.png'; live=13000000" sizing.gnuplot
set terminal pngcairo size 1000,520 font ",10"
set output out
set title "Sessions table under rewrites: bytes on disk and in the memstore, as multiples of the live data"
set datafile separator ","
set key outside below horizontal
set grid
set xlabel "seconds"
set ylabel "multiple of the live data"
set yrange [0:*]
set y2label "store files"
set y2tics
set y2range [0:*]
plot data using 1:($3 / live) every ::1 with lines lw 2 lc rgb "blue" title "bytes on disk / live", \
     '' using 1:($4 / live) every ::1 with lines lw 1 dt 2 lc rgb "dark-orange" title "memstore / live", \
     '' using 1:2 every ::1 axes x1y2 with steps lw 1 lc rgb "black" title "store files (right axis)"
