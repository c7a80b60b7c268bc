// The player list (seated players by score, then spectators) and the per-player actions.

import { $, $$, el, show } from './dom.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { avatarNode } from './avatar.js';
import { openPlayerMenu, refreshPlayerMenu } from './player-menu.js';
import { state, me, player, isHost, isTelephone } from './store.js';
import { send } from './context.js';
import { ask } from './confirm-dialog.js';

export function renderPlayers() {
  const players = state.room?.players || [];
  const seated = players.filter((p) => !p.spectator).sort((a, b) => (b.score || 0) - (a.score || 0));
  const spectators = players.filter((p) => p.spectator);
  $('#player-list').replaceChildren(...seated.map(playerRow));
  $('#spectator-list').replaceChildren(...spectators.map(playerRow));
  show($('#spectators-box'), spectators.length > 0);
  refreshPlayerMenu((id) => $$('.player-list .player').find((li) => li.dataset.id === String(id))?.querySelector('.player-menu-btn') || null);
}

function playerMarks(p, drawing, guessed) {
  const marks = el('span', { className: 'marks' });
  if (state.room?.host === p.id) marks.append(el('span', { className: 'mark mark-host', title: t('player.host') }, icon('crown', t('player.host'))));
  if (drawing) marks.append(el('span', { className: 'mark mark-drawing', title: t('player.drawing') }, icon('pencil', t('player.drawing'))));
  if (guessed) marks.append(el('span', { className: 'mark mark-guessed', title: t('player.guessed') }, icon('check', t('player.guessed'))));
  // telephone: who has handed in this step (phoneProgress), never what
  if (state.phase === 'telephone' && state.phone.done.includes(p.id)) marks.append(el('span', { className: 'mark mark-guessed mark-phone-done', title: t('phone.doneMark') }, icon('check', t('phone.doneMark'))));
  if (p.bot) marks.append(botBadge());
  if (state.phase === 'lobby' && p.ready) marks.append(el('span', { className: 'mark mark-ready', text: t('player.ready') }));
  if (p.connected === false) marks.append(el('span', { className: 'mark mark-offline', text: t('player.offline') }));
  return marks;
}

function playerRow(p) {
  const isMe = p.id === state.meId;
  const drawing = p.id === state.drawer && (state.phase === 'drawing' || state.phase === 'choosing');
  const guessed = Boolean(p.guessed) || state.guessedPoints[p.id] !== undefined;
  const li = el('li', {
    className: ['player', isMe && 'me', p.connected === false && 'disconnected', drawing && 'drawing', guessed && 'guessed', p.spectator && 'spectator'].filter(Boolean).join(' '),
    dataset: { id: String(p.id) },
  });
  const pts = state.phase === 'drawing' ? state.guessedPoints[p.id] : undefined;
  // name on its own line (wrapping, never cut), score and badges under it as separate
  // items, so a long name, a score and a badge never overlap
  li.append(
    avatarNode(p.avatar, p.name, { size: 34 }),
    el('span', { className: 'player-main' },
      el('span', { className: 'player-name' }, el('bdi', { text: p.name || '?' }), isMe ? el('span', { className: 'player-you muted small', text: t('player.you') }) : null),
      el('span', { className: 'player-sub' },
        // a telephone game has no scores: no '0 pts' under every name
        el('span', { className: 'player-score', text: p.spectator ? t('player.spectating') : isTelephone() ? '' : t('player.points', { n: p.score || 0 }) }, pts ? el('span', { className: 'gain', text: ` +${pts}` }) : null),
        playerMarks(p, drawing, guessed),
      ),
    ),
  );
  const items = playerActions(p);
  if (items.length) {
    const btn = el('button', {
      type: 'button',
      className: 'btn btn-ghost btn-xs player-menu-btn',
      attrs: { 'aria-label': t('player.actions', { name: p.name }), 'aria-haspopup': 'menu', 'aria-expanded': 'false' },
    }, icon('more'));
    btn.addEventListener('click', () => openPlayerMenu(btn, p.id, () => playerActions(player(p.id) || p)));
    li.append(btn);
  }
  return li;
}

/** The badge a bot carries wherever players are shown. */
export function botBadge() {
  return el('span', { className: 'mark mark-bot', title: t('player.botTitle'), text: t('player.bot') });
}

/** The actions that apply to another player now: vote kick in a game, kick for the host. */
function playerActions(p) {
  if (p.id === state.meId || !state.room) return [];
  const items = [];
  if (state.phase && state.phase !== 'lobby' && !me()?.spectator) {
    const vk = state.votekicks[p.id];
    items.push({
      id: 'votekick',
      label: vk ? t('player.votekickCount', { votes: vk.votes, needed: vk.needed }) : t('player.votekick'),
      action: async () => { if (await ask('player.votekickConfirm', { name: p.name })) send({ t: 'votekick', playerId: p.id }); },
    });
  }
  if (isHost() && p.bot) {
    // A bot is taken out of its seat, not kicked (no ban, no notice).
    items.push({ id: 'removeBot', label: t('player.removeBot'), danger: true, action: () => send({ t: 'removeBot', playerId: p.id }) });
    return items;
  }
  if (isHost()) {
    items.push({
      id: 'kick',
      label: t('player.kick'),
      danger: true,
      action: async () => { if (await ask('player.kickConfirm', { name: p.name }, { danger: true })) send({ t: 'kick', playerId: p.id }); },
    });
  }
  return items;
}
