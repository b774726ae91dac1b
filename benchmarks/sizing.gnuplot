# Disk use of the sessions table while every session is rewritten every few seconds (benchmark part sizing, 7b):
# bytes in its directory, in the archive and in the region's memstore as multiples of the live data, and its files,
# over time. Called by run.sh with the line the suite writes to sizing-rewrite.chart:
#   gnuplot -e "data='.../sizing-rewrite.csv'; out='.../sizing-rewrite.png'; live=7422740" sizing.gnuplot
set terminal pngcairo size 1000,520 font ",10"
set output out
set title "Sessions table under rewrites: bytes as multiples of the live data, and files"
set datafile separator ","
set key outside below horizontal
set grid
set xlabel "seconds"
set ylabel "multiple of the live data"
set yrange [0:*]
set y2label "files"
set y2tics
set y2range [0:*]
plot data using 1:($3 / live) every ::1 with lines lw 2 lc rgb "blue" title "store directory / live", \
     '' using 1:(($3 + $7) / live) every ::1 with lines lw 1 lc rgb "purple" title "store directory + archive / live", \
     '' using 1:($4 / live) every ::1 with lines lw 1 dt 2 lc rgb "dark-orange" title "memstore / live", \
     '' using 1:2 every ::1 axes x1y2 with steps lw 1 lc rgb "black" title "files in the store directory (right axis)", \
     '' using 1:6 every ::1 axes x1y2 with steps lw 1 dt 3 lc rgb "forest-green" title "live store files (right axis)"
