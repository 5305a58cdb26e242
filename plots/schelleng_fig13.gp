# schelleng_fig13.gp: the article's Figure 13: the Schelleng diagram of the model without the
# Stribeck effect, mu_d = mu_s = 1.05, y_a = 0.3, tau_g = 35 K, b_tau = 0.2 (schelleng-fig13.ini),
# with the boundary lines of the main diagram (as the article marks Figure 10's lines on it).
if (!exists("name")) name = "schelleng_fig13"
call "plots/common.gp" name
results = datadir("schelleng")."results-fig13.tsv"
main = system("test -f ".shq(datadir("schelleng")."results-full.tsv")." && echo y") eq "y" ? "results-full" : "results"
boundaries = datadir("schelleng").main."-boundaries.tsv"
heading = "Schelleng diagram without the Stribeck effect: {/Symbol m}_d = {/Symbol m}_s = 1.05 (Figure 13 parameters)"
load "plots/schelleng.gp"
