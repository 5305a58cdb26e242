# schelleng_fig13.gp: the article's Figure 13: the Schelleng diagram of the model without the
# Stribeck effect, mu_d = mu_s = 1.05, y_a = 0.3, tau_g = 35 K, b_tau = 0.2 (schelleng-fig13.ini).
call "plots/common.gp" "schelleng_fig13"
results = datadir("schelleng")."results-fig13.tsv"
heading = "Schelleng diagram without the Stribeck effect: {/Symbol m}_d = {/Symbol m}_s = 1.05 (Figure 13 parameters)"
load "plots/schelleng.gp"
