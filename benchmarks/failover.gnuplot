# Requests per second by outcome around the kill -9 of a region server, with the latency's p99, from one
# failover run's timeline. Called by run.sh for each line of failover.charts:
#   gnuplot -e "data='...tsv'; out='...png'; heading='...'; expired=12.3; reassigned=14.5" failover.gnuplot
set terminal pngcairo size 1000,520 font ",10"
set output out
set title heading . ": requests per second by outcome (sent in that second), kill -9 at 0 s"
set datafile separator "\t"
set key outside below horizontal
set grid
set xlabel "seconds from the kill"
set ylabel "requests/s"
set yrange [0:*]
set y2label "p99 latency (ms)"
set y2tics
set y2range [0:*]
set style fill transparent solid 0.6 noborder
set arrow from 0, graph 0 to 0, graph 1 nohead dt 2 lw 2 lc rgb "black"
set label "kill" at 0, graph 0.96 offset 0.5, 0
set arrow from expired, graph 0 to expired, graph 1 nohead dt 2 lw 2 lc rgb "dark-orange"
set label "expired" at expired, graph 0.90 offset 0.5, 0
set arrow from reassigned, graph 0 to reassigned, graph 1 nohead dt 2 lw 2 lc rgb "dark-green"
set label "reassigned" at reassigned, graph 0.84 offset 0.5, 0
plot data using 1:2 with steps lw 2 lc rgb "forest-green" title "answered 2xx", \
     '' using 1:3 with steps lw 2 lc rgb "red" title "503 (failMode)", \
     '' using 1:($4 + $5 + $6) with steps lw 2 lc rgb "black" title "other status, no answer, connection failed", \
     '' using 1:10 axes x1y2 with lines lw 1 dt 3 lc rgb "blue" title "p99 latency (right axis)"
