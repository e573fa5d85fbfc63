// ui-3d-reveal, part 3 of 3: apply the variables to the page, lay out the card deck in 3D and
// register ONE paused GSAP timeline. The runtime seeks it, so every frame is a pure function of
// time: no play(), no clock reads, no unseeded randomness, no onUpdate callbacks.
(() => {
  'use strict';
  const R = window.uiReveal;
  if (!window.gsap || !R || !R.buildCard) {
    // Say once what is missing instead of throwing on every seek.
    console.error('ui-3d-reveal: GSAP, variables.js or cards.js did not load; check the <script> tags in index.html.');
    return;
  }
  const gsap = window.gsap;
  const vars = R.readVariables();
  const stage = document.querySelector('.stage');

  // ---------- static content ----------
  stage.dataset.theme = vars.theme;
  const accentHue = R.applyAccent(stage, vars.accentColor);

  const badge = stage.querySelector('.badge');
  badge.querySelector('.badge-text').textContent = vars.badgeText;
  badge.classList.toggle('badge--hidden', !vars.showBadge);
  stage.classList.toggle('no-badge', !vars.showBadge);

  const subtitle = stage.querySelector('.subtitle');
  subtitle.textContent = vars.subtitle;
  subtitle.hidden = vars.subtitle === '';

  const title = stage.querySelector('.title');
  title.textContent = '';
  const chars = [];
  vars.title.split(' ').forEach((word, i) => {
    if (i > 0) title.appendChild(document.createTextNode(' '));
    const w = R.el('span', 'word');
    for (const ch of Array.from(word)) {
      const c = R.el('span', 'char');
      c.textContent = ch;
      w.appendChild(c);
      chars.push(c);
    }
    title.appendChild(w);
  });
  // Shrink long lines to fit the frame (layout is measured before any transform is applied).
  fitWidth(title, 1640, 128, 56);
  fitWidth(subtitle, 1500, 34, 22);

  function fitWidth(node, maxWidth, basePx, minPx) {
    node.style.fontSize = `${basePx}px`;
    const width = node.getBoundingClientRect().width;
    if (width > maxWidth) node.style.fontSize = `${Math.max(minPx, Math.floor((basePx * maxWidth) / width))}px`;
  }

  // Dust: a seeded field of specks that drifts upward, giving the background depth.
  const rand = R.seeded(20260521);
  const dust = stage.querySelector('.dust');
  const specks = [];
  for (let i = 0; i < 46; i++) {
    const s = R.el('i');
    const size = 1.5 + rand() * 3;
    Object.assign(s.style, {
      left: `${(rand() * 1920).toFixed(1)}px`,
      top: `${(80 + rand() * 920).toFixed(1)}px`,
      width: `${size.toFixed(1)}px`,
      height: `${size.toFixed(1)}px`,
    });
    dust.appendChild(s);
    specks.push({ node: s, rise: 40 + rand() * 90, alpha: 0.12 + rand() * 0.45 });
  }

  // ---------- the deck ----------
  const n = vars.cardCount;
  const CARD_FONT = { 1: 20.5, 2: 18, 3: 17, 4: 16, 5: 15, 6: 12.8 }; // px per em; cards are 20em x 25em
  const em = CARD_FONT[n];
  const deck = stage.querySelector('.deck');
  deck.style.fontSize = `${em}px`;
  const center = (n - 1) / 2;
  // Featured (richest) card in the middle, then alternating outward.
  const slots = Array.from({ length: n }, (_, i) => i).sort((a, b) => Math.abs(a - center) - Math.abs(b - center) || a - b);
  const cards = new Array(n);
  slots.forEach((slot, rank) => {
    const card = R.buildCard(R.PRIORITY[rank], { accentHue }, rank === 0);
    const o = slot - center;
    card.offset = o;
    card.rank = rank;
    // A shallow concave arc: outer cards turn toward the viewer like a wrap-around display.
    gsap.set(card.root, {
      x: o * em * 21.6,
      z: Math.abs(o) * Math.abs(o) * em * 1.6 + (rank === 0 ? em * 3 : 0),
      rotationY: -o * 9,
    });
    cards[slot] = card;
    deck.appendChild(card.root);
  });

  // ---------- timeline ----------
  const tl = gsap.timeline({ paused: true, defaults: { ease: 'power3.out' } });
  const rig = stage.querySelector('.rig');
  const q = (s) => stage.querySelector(s);

  // Background: light comes up, the horizon line ignites, the floor scrolls toward the viewer.
  tl.fromTo(q('.bg-spot'), { opacity: 0.35, scale: 0.85 }, { opacity: 1, scale: 1, duration: 1.6, ease: 'power2.out' }, 0);
  tl.fromTo(q('.bg-orb--a'), { x: -80, y: 40, opacity: 0 }, { x: 90, y: -50, opacity: 1, duration: 5.5, ease: 'sine.inOut' }, 0);
  tl.fromTo(q('.bg-orb--b'), { x: 60, y: -30, opacity: 0 }, { x: -110, y: 50, opacity: 1, duration: 5.5, ease: 'sine.inOut' }, 0);
  tl.fromTo(q('.horizon-core'), { scaleX: 0, opacity: 0 }, { scaleX: 1, opacity: 1, duration: 1.3, ease: 'expo.out' }, 0.05);
  tl.fromTo(q('.horizon-flare'), { scale: 0.2, opacity: 0 }, { scale: 1, opacity: 1, duration: 0.5, ease: 'power2.out' }, 0.05);
  tl.to(q('.horizon-flare'), { scaleY: 0.5, opacity: 0.35, duration: 1.4, ease: 'power2.inOut' }, 0.6);
  tl.fromTo(q('.floor-wrap'), { opacity: 0 }, { opacity: 1, duration: 1.2, ease: 'power1.out' }, 0.15);
  tl.fromTo(q('.floor'), { backgroundPosition: '50% 0px' }, { backgroundPosition: '50% 360px', duration: 5.5, ease: 'power2.out' }, 0);
  // As the deck rises, the horizon glow moves down with it and calms to an accent line.
  tl.fromTo(q('.horizon'), { y: 0, opacity: 1 }, { y: 150, opacity: 0.55, duration: 1.4, ease: 'power3.inOut' }, 2.3);
  tl.fromTo(q('.floor-wrap'), { y: 0 }, { y: 150, duration: 1.4, ease: 'power3.inOut' }, 2.3);
  specks.forEach(({ node, rise, alpha }) => {
    tl.fromTo(node, { y: 0, opacity: 0 }, { y: -rise, opacity: alpha, duration: 5.5, ease: 'power1.out' }, 0);
  });

  // Camera: a steep, close angle that orbits round while the cards land, then pulls back and
  // down to make room for the title, and settles by 5.3 s.
  tl.fromTo(
    rig,
    { rotationX: 40, rotationY: -26, z: 120, y: -30 },
    { rotationX: 12, rotationY: 7, z: 0, y: -10, duration: 2.5, ease: 'power2.inOut' },
    0,
  );
  tl.to(rig, { rotationX: 18, rotationY: -3, z: -150, y: 200 + (em - 15) * 8, duration: 1.45, ease: 'power3.inOut' }, 2.3);
  tl.to(rig, { rotationY: 0, duration: 1.55, ease: 'sine.out' }, 3.75);

  // Cards: fly up out of the floor from far away, featured first, then outward.
  const landAt = (card) => 0.2 + card.rank * 0.13;
  cards.forEach((card) => {
    const at = landAt(card);
    tl.fromTo(
      card.fly,
      { z: -1500, y: 420, rotationX: -72, rotationY: card.offset * -16 },
      { z: 0, y: 0, rotationX: 0, rotationY: 0, duration: 1.5, ease: 'expo.out' },
      at,
    );
    tl.fromTo([card.face, card.shadow], { opacity: 0 }, { opacity: 1, duration: 0.55, ease: 'power1.out' }, at);
    card.animateContent(tl, at + 0.55);
    // Light sweep across the deck, left to right.
    tl.fromTo(card.sheen, { xPercent: -120 }, { xPercent: 260, duration: 1.0, ease: 'power2.inOut' }, 2.05 + (card.offset + center) * 0.08);
  });

  const featured = cards.find((c) => c.rank === 0);
  tl.fromTo(featured.aura, { opacity: 0, scale: 0.7 }, { opacity: 1, scale: 1, duration: 1.0, ease: 'power2.out' }, 1.5);
  tl.to(featured.aura, { opacity: 0.7, duration: 1.2, ease: 'sine.inOut' }, 3.4);
  tl.fromTo(
    featured.toast,
    { z: 0, y: 24, scale: 0.8, opacity: 0 },
    { z: em * 6, y: 0, scale: 1, opacity: 1, duration: 0.8, ease: 'back.out(1.6)' },
    2.45,
  );

  // Title: badge pops, letters rise and tip up into place, glow and rule follow, then subtitle.
  tl.fromTo(badge, { opacity: 0, y: 18, scale: 0.85 }, { opacity: 1, y: 0, scale: 1, duration: 0.7, ease: 'back.out(1.8)' }, 2.95);
  tl.fromTo(q('.badge-dot'), { scale: 2.4 }, { scale: 1, duration: 0.9, ease: 'elastic.out(1, 0.5)' }, 3.05);
  const charStagger = Math.min(0.035, 0.6 / Math.max(1, chars.length));
  tl.fromTo(
    chars,
    { yPercent: 80, rotationX: -85, opacity: 0 },
    { yPercent: 0, rotationX: 0, opacity: 1, duration: 1.0, ease: 'power4.out', stagger: charStagger },
    3.0,
  );
  tl.fromTo(q('.title-glow'), { opacity: 0, scaleX: 0.6 }, { opacity: 1, scaleX: 1, duration: 1.2, ease: 'power2.out' }, 3.25);
  tl.to(q('.title-glow'), { opacity: 0.65, duration: 1.0, ease: 'sine.inOut' }, 4.45);
  tl.fromTo(q('.title-rule'), { scaleX: 0, opacity: 0 }, { scaleX: 1, opacity: 1, duration: 1.0, ease: 'expo.out' }, 3.55);
  // A glint runs through the letters once everything has landed.
  tl.fromTo(
    chars,
    { backgroundPosition: '100% 0%, 0% 0%' },
    { backgroundPosition: '0% 0%, 0% 0%', duration: 0.9, ease: 'power2.inOut', stagger: charStagger * 0.8 },
    4.25,
  );
  tl.fromTo(subtitle, { opacity: 0, y: 20 }, { opacity: 1, y: 0, duration: 0.9, ease: 'power3.out' }, 3.7);

  // Labels name the beats (the studio shows them on its ruler and jumps between them).
  tl.addLabel('cards', 0.2);
  tl.addLabel('sweep', 2.05);
  tl.addLabel('rise', 2.3);
  tl.addLabel('title', 2.95);
  tl.addLabel('settled', 5.3);

  // Pad to exactly the declared 6 s; everything above has finished by 5.3 s (clean end card).
  tl.set({}, {}, 6);

  window.__timelines = window.__timelines || {};
  window.__timelines[R.ID] = tl;
})();
