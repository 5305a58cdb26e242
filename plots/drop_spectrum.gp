# drop_spectrum.gp: the spectrum of u1 over the whole drop (lesson 7, bin/drop), Hann window:
# every bounce restrikes the same oscillator, so the peak stays at f0. spectrum.tsv holds the bins
# of lowest and highest level in each 1/1500 of log f.
call "plots/common.gp" "drop_spectrum"
f = datadir("drop")."spectrum.tsv"
stats datadir("drop")."summary.tsv" using (strcol(1) eq "f1_Hz" ? $2 : 1/0) nooutput
f1 = STATS_max
stats datadir("drop")."summary.tsv" using (strcol(1) eq "spectrum_peak_Hz" ? $2 : 1/0) nooutput
fpeak = STATS_max
stats datadir("drop")."summary.tsv" using (strcol(1) eq "spectrum_samples" ? $2 : 1/0) nooutput
nsamp = STATS_max
stats datadir("drop")."summary.tsv" using (strcol(1) eq "spectrum_fft_length" ? $2 : 1/0) nooutput
nfft = STATS_max
set title sprintf("spectrum of u_1, the whole run (Hann window, %d samples zero-padded to a %d-point FFT): peak at %.1f Hz", \
                  nsamp, nfft, fpeak)
set xlabel "frequency (Hz)"
set ylabel "level (dB re peak)"
set logscale x
set xrange [50:5000]
set yrange [-80:5]
set arrow from f1, -80 to f1, 5 nohead lw 1.5 dt 2 lc rgb "#404040" back   # thin: the peak stays visible
# The spectrum stays far below its peak away from f1: the key goes in the top corner on the other
# side of f1 (the axis is logarithmic from 50 to 5000 Hz, so its middle is 500 Hz).
if (f1 > 500) { set key top left } else { set key top right }
plot f using 1:2 with lines lw 1.2 lc rgb c_euler title "u_1", \
     NaN with lines lw 1.5 dt 2 lc rgb "#404040" title sprintf("f_1 = %.1f Hz", f1)
