// ui-3d-reveal, part 2 of 3: the UI cards. Each kind builds its own DOM (static, trusted markup;
// no user text goes through innerHTML) and adds its inner animation to the shared timeline at a
// given time, so the content comes alive right after the card lands.
(() => {
  'use strict';
  const { el, counter } = window.uiReveal;

  const head = (label, chip) =>
    `<div class="card-head"><span class="card-icon"></span><span class="card-label">${label}</span>` +
    `<span class="card-chip">${chip}</span></div>`;

  // Sparkline points (0..1 up) drawn into a 200x100 box.
  const SPARK = [0.16, 0.27, 0.21, 0.36, 0.31, 0.34, 0.5, 0.43, 0.61, 0.56, 0.77, 0.93];
  function sparkPaths() {
    const pts = SPARK.map((v, i) => [(i / (SPARK.length - 1)) * 200, 100 - v * 92]);
    let line = `M${pts[0][0]},${pts[0][1]}`;
    for (let i = 1; i < pts.length; i++) {
      // Smooth with horizontal control points so the curve never overshoots.
      const [x0, y0] = pts[i - 1];
      const [x1, y1] = pts[i];
      const cx = (x0 + x1) / 2;
      line += ` C${cx},${y0} ${cx},${y1} ${x1},${y1}`;
    }
    return { line, area: `${line} L200,100 L0,100 Z` };
  }

  const KINDS = {
    bars(card) {
      const heights = [38, 52, 44, 70, 58, 92, 64];
      card.innerHTML =
        head('Weekly renders', '+32%') +
        '<div class="card-value"></div><div class="card-note">videos this week</div>' +
        '<div class="card-fill"><div class="bars">' +
        heights.map((h, i) => `<div class="bar${i === 5 ? ' bar--peak' : ''}" style="height:${h}%"></div>`).join('') +
        '</div><div class="bar-days">' +
        'MTWTFSS'
          .split('')
          .map((d) => `<span>${d}</span>`)
          .join('') +
        '</div></div>';
      const value = counter(card.querySelector('.card-value'), (x) => `${x.toFixed(1)}k`);
      return (tl, at) => {
        tl.fromTo(value, { v: 0 }, { v: 12.4, duration: 1.3, ease: 'power2.out' }, at);
        tl.fromTo(card.querySelectorAll('.bar'), { scaleY: 0 }, { scaleY: 1, duration: 0.9, ease: 'power3.out', stagger: 0.06 }, at + 0.05);
      };
    },

    revenue(card) {
      const { line, area } = sparkPaths();
      card.innerHTML =
        head('Revenue', '+24.8%') +
        '<div class="card-value"></div><div class="card-note">vs. $38,690 last month</div>' +
        '<div class="card-fill"><svg class="spark" viewBox="0 0 200 100" preserveAspectRatio="none">' +
        '<defs><linearGradient id="spark-fill" x1="0" y1="0" x2="0" y2="1">' +
        '<stop offset="0" style="stop-color:var(--accent);stop-opacity:0.45"/>' +
        '<stop offset="1" style="stop-color:var(--accent);stop-opacity:0"/></linearGradient></defs>' +
        `<path class="spark-area" d="${area}" fill="url(#spark-fill)"/>` +
        `<path class="spark-line" d="${line}" pathLength="1" fill="none" ` +
        'style="stroke-width:2.6;stroke-linecap:round;stroke-linejoin:round;stroke-dasharray:1 1"/></svg></div>';
      const value = counter(card.querySelector('.card-value'), (x) => `$${Math.round(x).toLocaleString('en-US')}`);
      return (tl, at) => {
        tl.fromTo(value, { v: 0 }, { v: 48290, duration: 1.4, ease: 'power2.out' }, at);
        tl.fromTo(
          card.querySelector('.spark-line'),
          { strokeDashoffset: 1 },
          { strokeDashoffset: 0, duration: 1.3, ease: 'power2.inOut' },
          at,
        );
        tl.fromTo(card.querySelector('.spark-area'), { opacity: 0 }, { opacity: 1, duration: 0.9, ease: 'power1.out' }, at + 0.5);
      };
    },

    ring(card) {
      card.innerHTML =
        head('Render speed', 'Live') +
        '<div class="card-fill"><div class="ring"><svg viewBox="0 0 100 100">' +
        '<defs><linearGradient id="ring-grad" x1="0" y1="0" x2="1" y2="1">' +
        '<stop offset="0" style="stop-color:var(--accent-2)"/><stop offset="1" style="stop-color:var(--accent)"/></linearGradient></defs>' +
        '<circle cx="50" cy="50" r="43" fill="none" style="stroke:var(--track);stroke-width:8"/>' +
        '<circle class="ring-arc" cx="50" cy="50" r="43" fill="none" pathLength="100" stroke="url(#ring-grad)" ' +
        'style="stroke-width:8;stroke-linecap:round;stroke-dasharray:100"/></svg>' +
        '<div class="ring-label"><span class="ring-value"></span><small>faster than realtime</small></div></div></div>';
      const value = counter(card.querySelector('.ring-value'), (x) => `${x.toFixed(1)}\u00d7`);
      return (tl, at) => {
        tl.fromTo(
          card.querySelector('.ring-arc'),
          { strokeDashoffset: 100 },
          { strokeDashoffset: 22, duration: 1.4, ease: 'power3.inOut' },
          at,
        );
        tl.fromTo(value, { v: 0 }, { v: 3.6, duration: 1.4, ease: 'power3.inOut' }, at);
      };
    },

    deploy(card) {
      card.innerHTML =
        head('Render job', 'MP4') +
        '<div class="term">' +
        '<span class="term-line"><span class="term-dim">$</span> seekframe render</span>' +
        '<span class="term-line"><span class="term-dim">\u203a</span> compile composition</span>' +
        '<span class="term-line"><span class="term-dim">\u203a</span> capture 180 frames</span>' +
        '<span class="term-line"><span class="term-dim">\u203a</span> encode 1920\u00d71080 @ 30</span>' +
        '<span class="term-line"><span class="term-ok">\u2713</span> out.mp4 \u00b7 2.4 MB</span></div>' +
        '<div class="progress"><div class="progress-fill"></div></div>' +
        '<div class="progress-row"><span class="frames"></span><span class="pct"></span></div>';
      const frames = counter(card.querySelector('.frames'), (x) => `frame ${Math.round(x)}/180`);
      const pct = counter(card.querySelector('.pct'), (x) => `${Math.round(x)}%`);
      return (tl, at) => {
        tl.fromTo(
          card.querySelectorAll('.term-line'),
          { opacity: 0, x: -10 },
          { opacity: 1, x: 0, duration: 0.4, ease: 'power2.out', stagger: 0.22 },
          at,
        );
        tl.fromTo(card.querySelector('.progress-fill'), { scaleX: 0 }, { scaleX: 1, duration: 1.3, ease: 'power1.inOut' }, at + 0.1);
        tl.fromTo(frames, { v: 0 }, { v: 180, duration: 1.3, ease: 'power1.inOut' }, at + 0.1);
        tl.fromTo(pct, { v: 0 }, { v: 100, duration: 1.3, ease: 'power1.inOut' }, at + 0.1);
      };
    },

    tasks(card) {
      const rows = [
        ['Parse HTML', '0.2s'],
        ['Seek timeline', '1.8s'],
        ['Capture frames', '3.1s'],
        ['Encode video', '0.9s'],
      ];
      card.innerHTML =
        head('Pipeline', '<span class="done"></span>') +
        '<div class="tasks">' +
        rows
          .map(
            ([n, t]) =>
              `<div class="task"><span class="task-check"><b>\u2713</b></span><span class="task-name">${n}</span><span class="task-time">${t}</span></div>`,
          )
          .join('') +
        '</div>';
      const done = counter(card.querySelector('.done'), (x) => `${Math.floor(x)}/4 done`);
      return (tl, at) => {
        tl.fromTo(
          card.querySelectorAll('.task-check b'),
          { scale: 0 },
          { scale: 1, duration: 0.45, ease: 'back.out(2.4)', stagger: 0.22 },
          at,
        );
        tl.fromTo(card.querySelectorAll('.task-name'), { opacity: 0.4 }, { opacity: 1, duration: 0.3, stagger: 0.22 }, at);
        tl.fromTo(done, { v: 0 }, { v: 4, duration: 0.88, ease: 'none' }, at);
      };
    },

    team(card, ctx) {
      const people = [
        ['AK', 'Ava Kim', 'editing'],
        ['JM', 'Jon Miles', 'reviewing'],
        ['SR', 'Sara Ruiz', 'viewing'],
      ];
      const hues = [0, 55, 150, 215].map((o) => (ctx.accentHue + o) % 360);
      card.innerHTML =
        head('Collaborators', '3 online') +
        '<div class="avatars">' +
        ['AK', 'JM', 'SR', '+5'].map((a, i) => `<span class="avatar" style="background:hsl(${hues[i]} 62% 52%)">${a}</span>`).join('') +
        '</div><div class="people">' +
        people.map(([, n, s]) => `<div class="person"><span class="person-dot"></span>${n}<em>${s}</em></div>`).join('') +
        '</div><div class="invite">Invite people</div>';
      return (tl, at) => {
        tl.fromTo(
          card.querySelectorAll('.avatar'),
          { scale: 0.3, opacity: 0 },
          { scale: 1, opacity: 1, duration: 0.5, ease: 'back.out(2)', stagger: 0.08 },
          at,
        );
        tl.fromTo(
          card.querySelectorAll('.person'),
          { opacity: 0, x: -12 },
          { opacity: 1, x: 0, duration: 0.5, ease: 'power2.out', stagger: 0.12 },
          at + 0.25,
        );
        tl.fromTo(card.querySelector('.invite'), { opacity: 0, y: 10 }, { opacity: 1, y: 0, duration: 0.5, ease: 'power2.out' }, at + 0.6);
      };
    },
  };

  // Richest kinds first: the first one sits in the middle of the deck as the featured card.
  const PRIORITY = ['bars', 'revenue', 'ring', 'deploy', 'tasks', 'team'];

  /** Builds one card; returns its root, fly layer, face, sheen and an `animate(tl, at)` hook. */
  function buildCard(kind, ctx, featured) {
    const root = el('div', `card card--${kind}${featured ? ' card--featured' : ''}`);
    const fly = el('div', 'card-fly');
    const shadow = el('div', 'card-shadow');
    const face = el('div', 'card-face');
    const sheen = el('div', 'card-sheen');
    const animateContent = KINDS[kind](face, ctx);
    face.appendChild(sheen);
    let aura = null;
    let toast = null;
    if (featured) {
      aura = el('div', 'card-aura');
      fly.appendChild(aura);
    }
    fly.append(shadow, face);
    if (featured) {
      toast = el('div', 'toast', '<span class="toast-check">\u2713</span>Render complete');
      fly.appendChild(toast);
    }
    root.appendChild(fly);
    return { root, fly, face, shadow, sheen, aura, toast, animateContent };
  }

  window.uiReveal.PRIORITY = PRIORITY;
  window.uiReveal.buildCard = buildCard;
})();
