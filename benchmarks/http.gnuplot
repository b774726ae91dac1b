# Throughput of each container and session store as a ratio to the same container's in-memory
# sessions, measured in the same run. Called by run.sh: gnuplot -e "data='...'; out='...'" http.gnuplot
set terminal pngcairo size 1100,560 font ",10"
set output out
set title "HTTP throughput relative to the container's in-memory sessions (same run, 16 connections)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:1.15]
set ylabel "requests/s as a ratio to in-memory"
set grid ytics
set key top right
set datafile separator "\t"
plot data using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3)
