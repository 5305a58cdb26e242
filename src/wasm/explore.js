/* explore.js: the notebook pages' four "Try it" explorers (issue 19). Every number shown comes
 * from ivplab's C (src/wasm/explore.c, compiled to WebAssembly and embedded in the page as
 * base64 by bin/notebook: file:// pages cannot fetch). This file only loads the module, moves
 * sliders, draws on canvases and plays sound; it holds no numerical method.
 *
 * Page addresses: #selftest sets each explorer to stated values and writes what the C returned,
 * with the redraw and render times (performance.now), into <pre id="selftest">; #shot=NAME shows
 * that explorer alone (for a screenshot). */
(function () {
    'use strict';
    var X = null, mem = null;
    var boxes = Array.prototype.slice.call(document.querySelectorAll('div.explorer'));
    if (!boxes.length)
        return;

    /* ---- the module: a WASI stub of the six calls the C library links (no files, no stdout) ---- */
    function b64bytes(s) {
        var bin = atob(s), out = new Uint8Array(bin.length);
        for (var i = 0; i < bin.length; i++)
            out[i] = bin.charCodeAt(i);
        return out;
    }
    var wasi = {
        clock_time_get: function (id, prec, out) {
            new BigUint64Array(mem.buffer, out, 1)[0] = BigInt(Math.round(performance.now() * 1e6));
            return 0;
        },
        fd_close: function () { return 8; },
        fd_fdstat_get: function () { return 8; },
        fd_seek: function () { return 8; },
        fd_write: function () { return 8; },
        proc_exit: function (code) { throw new Error('the C library exited with status ' + code); }
    };
    function str(p) {
        var b = new Uint8Array(mem.buffer, p), n = 0;
        while (b[n])
            n++;
        return new TextDecoder().decode(b.subarray(0, n));
    }
    function withString(s, fn) {
        var e = new TextEncoder().encode(s + '\0'), p = X.ex_alloc(e.length);
        new Uint8Array(mem.buffer, p, e.length).set(e);
        try { return fn(p); } finally { X.ex_free(p); }
    }
    function f64(p, n) { return new Float64Array(mem.buffer, p, n); }
    function el(tag, attrs, text) {
        var e = document.createElement(tag);
        for (var k in attrs || {})
            e.setAttribute(k, attrs[k]);
        if (text !== undefined)
            e.textContent = text;
        return e;
    }
    function fmt(x, d) { return isFinite(x) ? Number(x).toPrecision(d || 4) : String(x); }

    /* ---- drawing: axes with labels and units on a canvas ---- */
    function niceStep(span, n) {
        var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
        return p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
    }
    function Plot(canvas, xr, yr, xlabel, ylabel) {
        var ctx = canvas.getContext('2d'), W = canvas.width, H = canvas.height;
        var L = 64, R = 14, T = 12, B = 44;
        this.ctx = ctx;
        this.px = function (x) { return L + (x - xr[0]) / (xr[1] - xr[0]) * (W - L - R); };
        this.py = function (y) { return H - B - (y - yr[0]) / (yr[1] - yr[0]) * (H - T - B); };
        this.box = [L, T, W - L - R, H - T - B];
        this.clear = function () {
            ctx.setTransform(1, 0, 0, 1, 0, 0);
            ctx.fillStyle = '#fff';
            ctx.fillRect(0, 0, W, H);
        };
        this.axes = function () {
            ctx.strokeStyle = '#888';
            ctx.fillStyle = '#222';
            ctx.lineWidth = 1;
            ctx.font = '12px DejaVu Sans, sans-serif';
            ctx.strokeRect(L, T, W - L - R, H - T - B);
            var sx = niceStep(xr[1] - xr[0], 6), sy = niceStep(yr[1] - yr[0], 5), v;
            ctx.textAlign = 'center';
            for (v = Math.ceil(xr[0] / sx) * sx; v <= xr[1] + 1e-9 * sx; v += sx) {
                ctx.beginPath(); ctx.moveTo(this.px(v), H - B); ctx.lineTo(this.px(v), H - B + 4); ctx.stroke();
                ctx.fillText(+v.toPrecision(6) + '', this.px(v), H - B + 16);
            }
            ctx.textAlign = 'right';
            for (v = Math.ceil(yr[0] / sy) * sy; v <= yr[1] + 1e-9 * sy; v += sy) {
                ctx.beginPath(); ctx.moveTo(L - 4, this.py(v)); ctx.lineTo(L, this.py(v)); ctx.stroke();
                ctx.fillText(+v.toPrecision(6) + '', L - 6, this.py(v) + 4);
            }
            ctx.textAlign = 'center';
            ctx.fillText(xlabel, L + (W - L - R) / 2, H - 8);
            ctx.save();
            ctx.translate(14, T + (H - T - B) / 2);
            ctx.rotate(-Math.PI / 2);
            ctx.fillText(ylabel, 0, 0);
            ctx.restore();
        };
        this.clip = function () {
            ctx.save();
            ctx.beginPath();
            ctx.rect(L, T, W - L - R, H - T - B);
            ctx.clip();
        };
        this.line = function (xs, ys, n, colour, width) {
            ctx.strokeStyle = colour;
            ctx.lineWidth = width || 1.5;
            ctx.beginPath();
            for (var i = 0; i < n; i++)
                if (i) ctx.lineTo(this.px(xs(i)), this.py(ys(i))); else ctx.moveTo(this.px(xs(i)), this.py(ys(i)));
            ctx.stroke();
        };
        this.dot = function (x, y, r, colour) {
            ctx.fillStyle = colour;
            ctx.beginPath();
            ctx.arc(this.px(x), this.py(y), r, 0, 2 * Math.PI);
            ctx.fill();
        };
    }

    /* ---- shared controls ---- */
    function methodButtons(box, onpick, state) {
        var row = el('div', {'class': 'ex-methods'});
        function build() {
            row.textContent = '';
            for (var i = 0; i < X.ex_method_count(); i++) {
                (function (i) {
                    var b = el('button', {type: 'button', 'data-method': str(X.ex_method_name(i))}, str(X.ex_method_label(i)));
                    if (X.ex_method_flags(i) & 1)
                        b.title = 'implicit: needs a Newton solve per step';
                    if (i === state.m)
                        b.className = 'on';
                    b.addEventListener('click', function () { state.m = i; build(); onpick(); });
                    row.appendChild(b);
                })(i);
            }
        }
        build();
        box.appendChild(row);
        return build;
    }
    function slider(box, label, unit, min, max, step, value, oninput) {
        var wrap = el('label', {'class': 'ex-slider'}), out = el('output');
        var s = el('input', {type: 'range', min: min, max: max, step: step, value: value});
        wrap.appendChild(document.createTextNode(label + ' '));
        wrap.appendChild(s);
        wrap.appendChild(out);
        function show() { out.textContent = ' ' + s.value + (unit ? ' ' + unit : ''); }
        s.addEventListener('input', function () { show(); oninput(+s.value); });
        show();
        box.appendChild(wrap);
        return {input: s, set: function (v) { s.value = v; show(); oninput(+s.value); }};
    }
    /* The own-method text box: a tableau (the file format of lessons/methods/*.tab) as one more method. */
    function tableauBox(box, rebuild, state, redraw) {
        var d = el('details', {'class': 'ex-tableau'});
        d.appendChild(el('summary', {}, 'your own method: paste a Butcher tableau'));
        var ta = el('textarea', {rows: 6, cols: 40, spellcheck: 'false'});
        ta.value = '# explicit midpoint\n0   |\n1/2 | 1/2\n----+---------\n    | 0   1\n';
        var b = el('button', {type: 'button'}, 'use this tableau'), msg = el('span', {'class': 'ex-msg'});
        d.appendChild(ta);
        d.appendChild(el('br'));
        d.appendChild(b);
        d.appendChild(msg);
        b.addEventListener('click', function () {
            tableauGeneration++;
            var i = withString('mine.tab', function (pn) {
                return withString(ta.value, function (pt) { return X.ex_tableau(pn, pt); });
            });
            if (i < 0) {
                msg.textContent = ' ' + str(X.ex_error());
                if (state.m >= X.ex_method_count())
                    state.m = 0;
            } else {
                msg.textContent = ' "mine": order ' + X.ex_method_order(i) + ', added to every explorer on this page';
                state.m = i;
            }
            rebuildAll();
            redraw();
        });
        box.appendChild(d);
        return {text: ta, use: function (t) { ta.value = t; b.click(); return msg.textContent; }};
    }
    var rebuilders = [], tableauGeneration = 0;     /* a new pasted tableau: regions drawn again */
    function rebuildAll() { rebuilders.forEach(function (f) { f(); }); }

    /* ---- 1. the oscillator: raise h, switch methods (as bin/ivp) ---- */
    var OMEGA0 = 2 * Math.PI, SIGMA0 = 0.2, U0 = 1, V0 = 0, TEND = 6;
    function oscillator(box) {
        var st = {m: 0, h: 0.002}, cv = el('canvas', {width: 860, height: 360}), info = el('div', {'class': 'ex-info'});
        var p = new Plot(cv, [0, TEND], [-2.2, 2.2], 'time t (s)', 'displacement u (m)');
        function draw() {
            var n = X.ex_osc(st.m, st.h, TEND, OMEGA0, SIGMA0, U0, V0), err = str(X.ex_error());
            var nc = X.ex_osc_curve(TEND, 1201, OMEGA0, SIGMA0, U0, V0);
            var t = f64(X.ex_osc_ptr(0), n), u = f64(X.ex_osc_ptr(1), n), v = f64(X.ex_osc_ptr(2), n);
            var c = f64(X.ex_osc_ptr(4), nc);
            p.clear();
            p.clip();
            p.line(function (i) { return TEND * i / (nc - 1); }, function (i) { return c[i]; }, nc, '#aaa', 3);
            /* a run that leaves the plot is drawn to where it leaves (a sample beyond the frame is
             * drawn on its edge), not as a comb of lines to huge values */
            var shown = n, YM = 2.2;
            for (var j = 0; j < n; j++)
                if (!(Math.abs(u[j]) <= YM)) { shown = j + 1; break; }
            var uc = function (i) { return Math.abs(u[i]) <= YM ? u[i] : (u[i] > 0 ? 1.02 : -1.02) * YM; };
            p.line(function (i) { return t[i]; }, uc, shown, '#1f77b4', 1.5);
            /* the slope u' = v at each sample (every n/30-th of many, as plots/ivp.gp): a black tick
             * along (1, v), of one length on the screen */
            var sx = p.px(1) - p.px(0), sy = p.py(0) - p.py(1), ctx = p.ctx, every = n > 61 ? Math.floor((n - 1) / 30) : 1;
            ctx.strokeStyle = '#000';
            ctx.lineWidth = 1.5;
            for (var i = 0; i < shown && Math.abs(u[i]) <= YM; i += every) {
                var dx = sx, dy = -v[i] * sy, len = Math.sqrt(dx * dx + dy * dy), k = 9 / len;
                ctx.beginPath();
                ctx.moveTo(p.px(t[i]) - dx * k, p.py(u[i]) - dy * k);
                ctx.lineTo(p.px(t[i]) + dx * k, p.py(u[i]) + dy * k);
                ctx.stroke();
                p.dot(t[i], u[i], 2.5, '#1f77b4');
            }
            ctx.restore();
            p.axes();
            var blew = err.match(/blew up at t = [^ ]+ s/), left = shown < n || Math.abs(u[n - 1]) > YM;
            st.shown = shown;
            st.info = str(X.ex_method_label(st.m)) + ', h = ' + st.h + ' s: ' + (n - 1) + ' steps; max |u - exact| = ' +
                fmt(X.ex_osc_max_err()) + ' m' + (blew ? '; ' + blew[0] + ' (|y| over 1e6 times its start), drawn up to ' +
                'where it leaves the plot' : left ? '; leaves the plot (|u| > 2.2 m) at t = ' + fmt(t[shown - 1]) + ' s' : '') +
                (err && !blew ? ' (' + err + ')' : '');
            var hl = f64(X.ex_hlambda(st.m, st.h, OMEGA0, SIGMA0), 6);
            st.absR = hl[4];
            st.info += '; max |R(h\u03bb)| = ' + fmt(hl[4], 6) + (hl[5] ? ' <= 1: does not grow' : ' > 1: grows') +
                '. Gray: exact; ticks: the slope u\' = v at each sample.';
            info.textContent = st.info;
            return X.ex_osc_max_err();
        }
        rebuilders.push(methodButtons(box, draw, st));
        /* from bin/ivp's default 2 ms to 0.5 s: RK4's limit on this oscillator, 2.83 / |lambda| =
         * 0.45 s, is inside the range */
        var hs = slider(box, 'h', 's', 0.001, 0.5, 0.001, st.h, function (v) { st.h = v; draw(); });
        box.appendChild(cv);
        box.appendChild(info);
        var tb = tableauBox(box, null, st, draw);
        draw();
        return {draw: draw, state: st, h: hs, tableau: tb};
    }

    /* ---- 2. the stability region of the chosen method, |R(z)| at the cursor, h lambda overlaid ---- */
    function stability(box) {
        var st = {m: 4, z: [0, 2.8284], h: 0.1, net: false}, cv = el('canvas', {width: 860, height: 420}), info = el('div', {'class': 'ex-info'});
        var xr = [-4.5, 1.5], yr = [-3.5, 3.5], p = new Plot(cv, xr, yr, 'Re z = Re h\u03bb (1)', 'Im z = Im h\u03bb (1)');
        var shade = null;       /* the region of one method, drawn once: {key, canvas} */
        function region() {
            var key = st.m + ':' + tableauGeneration;
            if (shade && shade.key === key)
                return shade.canvas;
            var bx = p.box, nx = Math.floor(bx[2] / 2), ny = Math.floor(bx[3] / 2);
            var got = X.ex_region(st.m, xr[0], xr[1], nx, yr[0], yr[1], ny);
            var reg = new Uint8Array(mem.buffer, X.ex_region_ptr(), got);
            var tmp = document.createElement('canvas');
            tmp.width = nx; tmp.height = ny;
            var tctx = tmp.getContext('2d'), img = tctx.createImageData(nx, ny);
            for (var j = 0; j < ny && got; j++)
                for (var i = 0; i < nx; i++) {
                    var q = 4 * ((ny - 1 - j) * nx + i), s = reg[j * nx + i];
                    img.data[q] = s ? 158 : 255; img.data[q + 1] = s ? 202 : 255; img.data[q + 2] = s ? 225 : 255; img.data[q + 3] = 255;
                }
            tctx.putImageData(img, 0, 0);
            shade = {key: key, canvas: tmp};
            return tmp;
        }
        function draw() {
            var bx = p.box, ctx = p.ctx;
            p.clear();
            ctx.imageSmoothingEnabled = false;
            ctx.drawImage(region(), bx[0], bx[1], bx[2], bx[3]);
            ctx.strokeStyle = '#bbb';
            ctx.beginPath(); ctx.moveTo(p.px(xr[0]), p.py(0)); ctx.lineTo(p.px(xr[1]), p.py(0));
            ctx.moveTo(p.px(0), p.py(yr[0])); ctx.lineTo(p.px(0), p.py(yr[1])); ctx.stroke();
            var ne = st.net ? X.ex_eigen_count() : 2;
            var hl = f64(st.net ? X.ex_hlambda_eigen(st.m, st.h) : X.ex_hlambda(st.m, st.h, OMEGA0, SIGMA0), 2 * ne + 2);
            var hz = Array.prototype.slice.call(hl);
            p.clip();
            for (var e = 0; e < ne; e++)
                p.dot(hz[2 * e], hz[2 * e + 1], 5, '#d62728');
            p.dot(st.z[0], st.z[1], 4, '#000');
            ctx.restore();
            p.axes();
            var a = X.ex_abs_R(st.m, st.z[0], st.z[1]), ok = X.ex_stable(st.m, st.z[0], st.z[1]);
            /* NaN: the bisection gave up (its halving cap) */
            var bound = function (v) { return isNaN(v) ? '? (the bound search gave up)' : fmt(v); };
            var rb = X.ex_bound(st.m, 0), ib = X.ex_bound(st.m, 1);
            info.textContent = str(X.ex_method_label(st.m)) + ': shaded |R(z)| <= 1; stable on [-' + bound(rb) + ', 0] and on j[0, ' +
                bound(ib) + ']. Black dot z = ' + fmt(st.z[0]) + (st.z[1] < 0 ? ' - ' : ' + ') + fmt(Math.abs(st.z[1])) + 'j: |R(z)| = ' +
                fmt(a, 6) + (ok ? ' (stable)' : ' (unstable)') + '. Red: h\u03bb of ' + (st.net ? 'the spring network (modes 10.5 Hz and 1950 Hz)' :
                'the oscillator (\u03c90 = 2\u03c0 rad/s, \u03c30 = 0.2 1/s)') + ' at h = ' + st.h + ' s, max |R| = ' +
                fmt(hz[2 * ne], 6) + (hz[2 * ne + 1] ? ', stable' : ', unstable') + '. Move the mouse over the plane.';
            return a;
        }
        cv.addEventListener('mousemove', function (e) {
            var r = cv.getBoundingClientRect(), x = (e.clientX - r.left) * cv.width / r.width, y = (e.clientY - r.top) * cv.height / r.height;
            var bx = p.box;
            st.z = [xr[0] + (x - bx[0]) / bx[2] * (xr[1] - xr[0]), yr[1] - (y - bx[1]) / bx[3] * (yr[1] - yr[0])];
            draw();
        });
        rebuilders.push(methodButtons(box, draw, st));
        /* the problem whose h lambda is laid over: the oscillator, or the spring network, whose
         * eigenvalues the page holds from bin/stability --problem stiff --h 1 (eigen.tsv) */
        var settings = box.querySelector('script.explore-settings');
        X.ex_eigen_clear();
        (settings ? settings.textContent : '').split('\n').forEach(function (line) {
            var f = line.split('\t');
            if (f.length === 2 && isFinite(parseFloat(f[0])) && isFinite(parseFloat(f[1])))
                X.ex_eigen_add(parseFloat(f[0]), parseFloat(f[1]));
        });
        var prow = el('div', {'class': 'ex-methods'}), hs = null, pbs = [];
        [['oscillator', false, 0.01, 0.6, 0.01, 0.1], ['spring network', true, 1e-5, 5e-4, 1e-5, 2e-4]].forEach(function (q) {
            if (q[1] && !X.ex_eigen_count())
                return;
            var b = el('button', {type: 'button', 'class': q[1] === st.net ? 'on' : ''}, q[0]);
            b.addEventListener('click', function () {
                st.net = q[1];
                pbs.forEach(function (o) { o.className = o === b ? 'on' : ''; });
                hs.input.min = q[2]; hs.input.max = q[3]; hs.input.step = q[4];
                hs.set(q[5]);
            });
            pbs.push(b);
            prow.appendChild(b);
        });
        box.appendChild(prow);
        hs = slider(box, 'h', 's', 0.01, 0.6, 0.01, st.h, function (v) { st.h = v; draw(); });
        box.appendChild(cv);
        box.appendChild(info);
        var tb = tableauBox(box, null, st, draw);
        draw();
        return {draw: draw, state: st, h: hs, tableau: tb, problems: pbs};
    }

    /* ---- 3. the roots of the damped oscillator as sigma0/omega0 runs from 0 to 2 ---- */
    function roots(box) {
        var st = {r: 0.2}, cv = el('canvas', {width: 860, height: 560}), info = el('div', {'class': 'ex-info'});
        var p = new Plot(cv, [-4, 0.5], [-1.45, 1.45], 'Re s / \u03c90 (1)', 'Im s / \u03c90 (1)');
        function draw() {
            p.clear();
            p.clip();
            var n = 401, re = [], im = [], re2 = [], im2 = [];
            for (var i = 0; i < n; i++) {
                var q = f64(X.ex_roots(2 * i / (n - 1)), 5);
                re.push(q[0]); im.push(q[1]); re2.push(q[2]); im2.push(q[3]);
            }
            p.line(function (i) { return re[i]; }, function (i) { return im[i]; }, n, '#bbb', 2);
            p.line(function (i) { return re2[i]; }, function (i) { return im2[i]; }, n, '#bbb', 2);
            var r = f64(X.ex_roots(st.r), 5), s = [r[0], r[1], r[2], r[3], r[4]];
            p.dot(s[0], s[1], 6, '#1f77b4');
            p.dot(s[2], s[3], 6, '#d62728');
            p.ctx.restore();
            p.axes();
            info.textContent = '\u03c30/\u03c90 = ' + st.r + ': s+/\u03c90 = ' + fmt(s[0], 6) + (s[1] < 0 ? ' - ' : ' + ') + fmt(Math.abs(s[1]), 6) +
                'j (blue), s-/\u03c90 = ' + fmt(s[2], 6) + (s[3] < 0 ? ' - ' : ' + ') + fmt(Math.abs(s[3]), 6) + 'j (red), |s+ - s-|/\u03c90 = ' +
                fmt(s[4], 4) + (s[4] === 0 ? ': they meet' : '') + '. Gray: the locus over 0 ... 2.';
            return s;
        }
        var rs = slider(box, '\u03c30/\u03c90', '', 0, 2, 0.01, st.r, function (v) { st.r = v; draw(); });
        box.appendChild(cv);
        box.appendChild(info);
        draw();
        return {draw: draw, state: st, ratio: rs};
    }

    /* ---- 4. drop the ball and listen at an audio rate (as bin/audiorate --method M --fs FS) ---- */
    function drop(box) {
        var st = {m: 4, fs: 11025, ref: []}, cv = el('canvas', {width: 860, height: 340}), info = el('div', {'class': 'ex-info'});
        var settings = box.querySelector('script.explore-settings');
        (settings ? settings.textContent : '').split('\n').forEach(function (line) {
            var t = line.replace(/#.*/, '').trim(), r = /^reference\s*=\s*(.*)$/.exec(t);
            if (r)      /* the reference's impact starts (bin/drop's CVODE run), s: the row to compare with */
                st.ref = r[1].split(/\s+/).filter(function (x) { return x !== ''; }).map(Number);
            else if (t && t[0] !== '[' && withString(t, function (q) { return X.ex_drop_set(q); }) !== 0)
                info.textContent = 'settings: ' + str(X.ex_error());
        });
        var T = withString('T', function (q) { return X.ex_drop_get(q); });
        var last = {n: 0, ms: 0};
        function run() {
            var t0 = performance.now();
            var n = X.ex_drop(st.m, st.fs);
            var snd = new Float32Array(new Float32Array(mem.buffer, X.ex_drop_sound_ptr(), n));
            last = {n: n, ms: performance.now() - t0, sound: snd, fs: st.fs, err: str(X.ex_error())};
            return last;
        }
        /* each of the first 4 impacts' start against the reference's, ms (Infinity: missing) */
        function refErrors(starts) {
            return st.ref.slice(0, 4).map(function (r, k) { return k < starts.length ? 1e3 * Math.abs(starts[k] - r) : Infinity; });
        }
        function draw() {
            run();
            var n = last.n, u = f64(X.ex_drop_u1_ptr(), n), peak = X.ex_drop_peak() * 1e6, ni = X.ex_drop_impacts();
            var lim = peak > 0 && isFinite(peak) ? 1.1 * peak : 1;
            var p = new Plot(cv, [0, T], [-lim, lim], 't (s)', 'u1 (\u00b5m)');
            p.clear();
            p.clip();
            var ctx = p.ctx, step = Math.max(1, Math.floor(n / 4000));
            ctx.lineWidth = 1;
            /* the reference's impacts in a grey row on top, the run's (red) below it */
            var top = st.ref.length ? 0.8 * lim : lim;
            ctx.strokeStyle = '#a0a0a0';
            st.ref.forEach(function (s) {
                ctx.beginPath(); ctx.moveTo(p.px(s), p.py(lim)); ctx.lineTo(p.px(s), p.py(0.84 * lim)); ctx.stroke();
            });
            ctx.strokeStyle = '#d62728';
            var starts = [];
            for (var k = 0; k < ni; k++) {
                var s = X.ex_drop_impact(k, 0);
                starts.push(s);
                ctx.beginPath(); ctx.moveTo(p.px(s), p.py(-lim)); ctx.lineTo(p.px(s), p.py(top)); ctx.stroke();
            }
            /* min and max of each pixel column's samples keep every ring visible */
            ctx.strokeStyle = '#1f77b4';
            ctx.beginPath();
            for (var i = 0; i < n; i += step) {
                var lo = Infinity, hi = -Infinity;
                for (var j = i; j < i + step && j < n; j++) { lo = Math.min(lo, u[j]); hi = Math.max(hi, u[j]); }
                ctx.moveTo(p.px(i / st.fs), p.py(lo * 1e6));
                ctx.lineTo(p.px(i / st.fs) + 0.01, p.py(hi * 1e6));
            }
            ctx.stroke();
            ctx.restore();
            p.axes();
            info.textContent = str(X.ex_method_label(st.m)) + ' at fs = ' + st.fs + ' Hz (h = 1/fs), ' + T + ' s: ' + ni +
                ' impacts (red lines), the first at ' + starts.slice(0, 4).map(function (s) { return fmt(s, 7) + ' s'; }).join(', ') +
                (ni > 4 ? ', ...' : '') + '; rendered in ' + last.ms.toFixed(1) + ' ms' + (last.err ? ' (' + last.err + ')' : '') + '.' +
                (st.ref.length ? ' Grey row on top: the reference (bin/drop, CVODE), ' + st.ref.length + ' impacts; impacts 1-4 off ' +
                 'it by ' + refErrors(starts).map(function (e) { return isFinite(e) ? fmt(e, 3) + ' ms' : 'missing'; }).join(', ') +
                 '.' : '');
            return starts;
        }
        rebuilders.push(methodButtons(box, draw, st));
        var fsrow = el('div', {'class': 'ex-methods'});
        [8000, 11025, 16000, 22050, 44100].forEach(function (f) {
            var b = el('button', {type: 'button'}, (f / 1000) + ' kHz');
            b.addEventListener('click', function () { st.fs = f; draw(); });
            fsrow.appendChild(b);
        });
        box.appendChild(fsrow);
        var play = el('button', {type: 'button', 'class': 'ex-play'}, '\u25b6 drop and listen');
        play.addEventListener('click', function () {
            draw();
            var AC = window.AudioContext || window.webkitAudioContext;
            if (!AC)
                return;
            var ac = new AC(), ab = ac.createBuffer(1, last.n, last.fs);
            ab.copyToChannel(last.sound, 0);
            var src = ac.createBufferSource();
            src.buffer = ab;
            src.connect(ac.destination);
            src.start();
        });
        box.appendChild(play);
        box.appendChild(cv);
        box.appendChild(info);
        draw();
        return {draw: draw, run: run, state: st, refErrors: refErrors};
    }

    var makers = {oscillator: oscillator, stability: stability, roots: roots, drop: drop};
    var made = {};

    /* ---- #selftest: stated settings, the C's answers and the times, for tests/claims/explore.sh ---- */
    function timeMoves(fn, values) {
        var ms = [];
        values.forEach(function (v) { var t0 = performance.now(); fn(v); ms.push(performance.now() - t0); });
        ms.sort(function (a, b) { return a - b; });
        return {median: ms[Math.floor(ms.length / 2)], max: ms[ms.length - 1]};
    }
    function hs_max(o) { return o.h.input.max; }
    function st_word(t) { return String(t).trim().replace(/\s+/g, '_'); }
    function selftest() {
        var out = ['SELFTEST'], o = made.oscillator, s = made.stability, r = made.roots, d = made.drop;
        function add(k, v) { out.push(k + '=' + v); }
        function idx(name) {
            for (var i = 0; i < X.ex_method_count(); i++)
                if (str(X.ex_method_name(i)) === name)
                    return i;
            return -1;
        }
        if (o) {
            o.state.m = idx('euler');
            o.h.set(0.1);
            add('osc_euler_h0.1_max_err_m', X.ex_osc_max_err().toPrecision(10));
            var tm = timeMoves(function (v) { o.h.set(v); }, [0.005, 0.01, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.02, 0.1]);
            add('osc_redraw_ms_median', tm.median.toFixed(2));
            add('osc_redraw_ms_max', tm.max.toFixed(2));
            o.state.m = idx('euler');
            o.h.set(0.1);
            o.tableau.use('0 |\n1/2 | 1/2\n | 0 1\n');
            add('own_tableau_order', X.ex_method_order(o.state.m));
            add('own_tableau_h0.1_max_err_m', o.draw().toPrecision(10));
            add('bad_tableau', o.tableau.use('0 |\n1 | 1 2\n | 1 0\n').trim().replace(/\s+/g, '_'));
            ['backward-euler', 'trapezoid', 'rk4'].forEach(function (name) {
                o.state.m = idx(name);
                add('osc_' + name + '_h0.1_max_err_m', o.draw().toPrecision(10));
            });
            add('osc_h_max_s', hs_max(o));
            o.state.m = idx('euler');
            o.h.set(0.3);
            add('osc_euler_h0.3_info', st_word(o.state.info));
            add('osc_euler_h0.3_shown', o.state.shown);
            o.state.m = idx('rk4');
            ['0.45', '0.46'].forEach(function (h) {
                o.h.set(+h);
                add('osc_rk4_h' + h + '_max_absR', o.state.absR.toPrecision(6));
            });
            o.state.m = idx('euler');
            o.h.set(0.1);
        }
        if (s) {
            s.state.m = idx('rk4');
            s.state.z = [0, 2.8284];
            add('stab_rk4_absR_2.8284j', s.draw().toPrecision(10));
            var ts = timeMoves(function (v) { s.h.set(v); }, [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.1]);
            add('stab_redraw_ms_median', ts.median.toFixed(2));
            add('stab_redraw_ms_max', ts.max.toFixed(2));
            var tw = timeMoves(function (v) { s.state.m = v; s.draw(); }, [0, 1, 2, 3, 4, 5, 0, 4]);
            add('stab_method_switch_ms_median', tw.median.toFixed(2));
            add('stab_method_switch_ms_max', tw.max.toFixed(2));
            s.state.m = idx('rk4');
            if (s.problems.length > 1) {
                s.problems[1].click();
                [0.00023, 0.00024].forEach(function (h) {
                    s.h.set(h);
                    var q = f64(X.ex_hlambda_eigen(s.state.m, h), 2 * X.ex_eigen_count() + 2);
                    add('stab_rk4_stiff_h' + h + '_max_absR', q[2 * X.ex_eigen_count()].toPrecision(10));
                    add('stab_rk4_stiff_h' + h + '_stable', q[2 * X.ex_eigen_count() + 1]);
                });
                s.problems[0].click();
            }
            s.draw();
            s.h.set(0.1);
        }
        if (r) {
            r.ratio.set(1);
            var q = r.draw();
            add('roots_ratio1', [q[0], q[1], q[2], q[3]].map(function (x) { return x.toPrecision(10); }).join(','));
            add('roots_ratio1_gap', q[4]);
            var tr = timeMoves(function (v) { r.ratio.set(v); }, [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2]);
            add('roots_redraw_ms_median', tr.median.toFixed(2));
            add('roots_redraw_ms_max', tr.max.toFixed(2));
            r.ratio.set(0.2);
        }
        if (d) {
            d.state.m = idx('rk4');
            d.state.fs = 11025;
            var starts = d.draw();
            add('drop_rk4_11025_impacts', starts.length);
            add('drop_rk4_11025_starts', starts.map(function (x) { return x.toFixed(9); }).join(','));
            add('drop_reference_impacts', d.state.ref.length);
            add('drop_rk4_11025_ref_err_ms', d.refErrors(starts).map(function (e) { return e.toFixed(6); }).join(','));
            d.state.m = idx('trapezoid');
            add('drop_trapezoid_11025_starts', d.draw().map(function (x) { return x.toFixed(9); }).join(','));
            d.state.m = idx('rk4');
            d.state.fs = 44100;
            var best = Infinity;
            for (var i = 0; i < 3; i++)
                best = Math.min(best, d.run().ms);
            add('drop_rk4_44100_samples', d.run().n);
            add('drop_rk4_44100_render_ms', best.toFixed(2));
            d.state.fs = 11025;
            d.draw();
        }
        add('wasm_bytes', wasmBytes);
        var pre = document.getElementById('selftest') || document.body.appendChild(el('pre', {id: 'selftest'}));
        pre.textContent = out.join(' ');
    }

    var wasmBytes = 0;
    function start() {
        var src = document.getElementById('ivplab-wasm');
        var bytes = b64bytes(src.textContent.trim());
        wasmBytes = bytes.length;
        return WebAssembly.instantiate(bytes, {wasi_snapshot_preview1: wasi}).then(function (res) {
            X = res.instance.exports;
            mem = X.memory;
            boxes.forEach(function (box) {
                var name = box.getAttribute('data-explorer');
                box.querySelector('.ex-note') && box.removeChild(box.querySelector('.ex-note'));
                if (makers[name])
                    made[name] = makers[name](box);
            });
            var shot = /#shot=(\w+)/.exec(location.hash);
            if (shot && made[shot[1]]) {
                var keep = document.querySelector('div.explorer[data-explorer="' + shot[1] + '"]');
                Array.prototype.forEach.call(document.body.children, function (c) {
                    if (c !== keep && !c.contains(keep)) c.style.display = 'none';
                });
                window.scrollTo(0, 0);
            }
            if (location.hash === '#selftest')
                selftest();
        }).catch(function (e) {
            boxes.forEach(function (box) { box.appendChild(el('p', {'class': 'ex-note'}, 'explorer failed to start: ' + e)); });
            var pre = document.getElementById('selftest') || document.body.appendChild(el('pre', {id: 'selftest'}));
            pre.textContent = 'SELFTEST failed: ' + e;
        });
    }
    start();
})();
