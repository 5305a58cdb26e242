# pluck_spectrogram.gp: the reference's magnitude spectrogram, the frames E_spec compares
# (M = 2048 periodic Hann, hop 512), to 8 kHz (lesson 9, bin/pluck).
call "plots/common.gp" "pluck_spectrogram"
set title "string-pluck-v1 reference: spectrogram (M = 2048, hop 512)"
set xlabel "time t (s)"
set ylabel "frequency f (Hz)"
set cblabel "level (dB re the loudest bin)"
set view map
set cbrange [-100:0]
set yrange [0:8000]
set xrange [0:2]
set palette defined (0 "white", 1 "#fde0c5", 2 "#f59e72", 3 "#c0392b", 4 "#2c0f0f")
unset key
splot datadir("pluck")."spectrogram.tsv" using 1:2:3 with pm3d
