# Throughput of each container and session store as a ratio to the same container's in-memory
# sessions, measured in the same run. Called by run.sh: gnuplot -e "data='...'; out='...'" http.gnuplot
set terminal pngcairo size 1100,580 font ",10"
set output out
set title "HTTP requests/s relative to the same container's in-memory sessions (one run, 16 connections)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:1.2]
set ylabel "ratio to in-memory"
set grid ytics
# Ten candidates and more: their names slanted, so that they do not run into each other.
set xtics rotate by -30 left
set bmargin 7
set key top right
set datafile separator "\t"
set key autotitle columnhead
plot data using 2:xtic(1), \
     '' using 3, \
     '' using ($0 - 0.17):($2 + 0.03):(sprintf("%.2f", $2)) with labels notitle, \
     '' using ($0 + 0.17):($3 + 0.03):(sprintf("%.2f", $3)) with labels notitle
