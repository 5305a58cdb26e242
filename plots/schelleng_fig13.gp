# schelleng_fig13.gp: the article's Figure 13: the Schelleng diagram of the model without the
# Stribeck effect, mu_d = mu_s = 1.05, y_a = 0.3, tau_g = 35 K, b_tau = 0.2 (schelleng-fig13.ini),
# with the boundary lines of the main diagram, labelled as the main sweep's (as the article marks
# Figure 10's lines on it); a heading short enough not to be clipped beside the outside key.
if (!exists("name")) name = "schelleng_fig13"
if (!exists("height")) height = 760   # the key below the plot, the plot as wide as the canvas
keypos = "outside below maxrows 4"
call "plots/common.gp" name
results = datadir("schelleng")."results-fig13.tsv"
main = system("test -f ".shq(datadir("schelleng")."results-full.tsv")." && echo y") eq "y" ? "results-full" : "results"
boundaries = datadir("schelleng").main."-boundaries.tsv"
# the friction values of the run (fig13-params.tsv), not typed
fp(k) = system(sprintf("awk -F'\t' '$1 == \"%s\" { print $2 }' %s 2>/dev/null", k, shq(datadir("schelleng")."fig13-params.tsv")))
mus = fp("mu_s"); mud = fp("mu_d")
heading = mus eq mud ? sprintf("Figure 13: no Stribeck effect, {/Symbol m}_d = {/Symbol m}_s = %s", mus) : \
          sprintf("Figure 13 sweep: {/Symbol m}_d = %s, {/Symbol m}_s = %s", mud, mus)
fit_from = "main sweep's "
load "plots/schelleng.gp"
