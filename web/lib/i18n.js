// The four languages of the app. The browser's language chooses the first one; the menu in the
// header switches, and the choice is remembered.
import { h, saved } from './dom.js';

const STRINGS = {
  en: {
    'nav.learn': 'Learn', 'learn.title': 'Lessons', 'learn.intro': 'Short lessons of the strategy the old players teach: find the move on the board, and the coach says why.', 'learn.step': 'Step {n} of {total}', 'learn.next': 'Next step', 'learn.nextLesson': 'Next lesson', 'learn.back': 'All lessons', 'learn.progress': '{done} of {total} steps done', 'learn.clickHint': 'Click the house to sow.',
    'err.bad-subscription': 'This browser’s notification subscription could not be used.',
    'err.mail-off': 'This server sends no e-mail.', 'err.too-many-mails': 'Too many confirmation mails were asked for: try again in an hour.', 'err.bad-email': 'That e-mail address cannot be used.', 'err.not-correspondence': 'E-mail is offered only in games with days for each move.', 'err.bad-code': 'This link is unknown, used or expired: ask for a new mail on the game’s page.', 'mail.label': 'Or by e-mail:', 'mail.placeholder': 'you@example.org', 'mail.ask': 'E-mail me when it is my move', 'mail.sent': 'A mail is on its way to {email}: open its link to confirm the address.', 'mail.on': 'E-mail on: you are told of your moves at {email}.', 'mail.off': 'Stop the mails', 'mail.offDone': 'No more mail for this game', 'mail.confirmTitle': 'Your e-mail address', 'mail.confirming': 'Confirming your address…', 'mail.confirmed': 'Your address is confirmed: you will get a mail when it is your move, and a reminder when one day is left.', 'mail.noCode': 'This link has no confirmation code: open the whole link from the mail.', 'mail.toGame': 'Back to the game', 'mail.unsubTitle': 'Stop the mails of this game', 'mail.unsubAsk': 'This address will get no more mail about this game.', 'mail.unsubDone': 'Done: no more mail about this game will be sent to this address.',
    'nav.puzzles': 'Puzzles', 'puzzle.title': 'Puzzles', 'puzzle.theme': 'Theme', 'puzzle.allThemes': 'All themes ({n})', 'puzzle.hint': 'Hint', 'puzzle.solution': 'Show the solution', 'puzzle.next': 'Next puzzle', 'puzzle.clickHint': 'One move wins: click the house to sow.', 'puzzle.fromMaster': 'From a master game.', 'puzzle.fromSelfPlay': 'From a game the engine played against itself.',
    'err.bad-theme': 'There is no such puzzle theme.', 'err.bad-lang': 'That language is not offered: choose ca, es, en or fr.',
    'nav.play': 'Play', 'nav.analysis': 'Analysis', 'nav.rules': 'Rules',
    'home.computer': 'Play the computer', 'home.friend': 'Play a friend', 'home.open': 'Open a game record or a position',
    'home.friendHint': 'You get a link to send. The first to open it plays the other side; anyone else watches. Until the first move you can make a new link and free the seat.',
    'home.openHint': 'Paste a game record (OGN), a move list such as FfEa, or a position string such as 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'level': 'Level', 'side': 'Your side', 'side.S': 'South (moves first)', 'side.N': 'North', 'side.random': 'Random',
    'ruleset': 'Rules', 'rules.abapa': 'Abapa (international)', 'rules.awari': 'Awari (research)',
    'play': 'Play', 'createLink': 'Create a link', 'clock': 'Clock', 'clock.none': 'none', 'clock.minutes': '{n} min each', 'reason.time': 'time ran out', 'open': 'Analyse',
    'south': 'South', 'north': 'North', 'you': 'You', 'computer': 'Computer (level {n})', 'friend': 'Friend', 'waiting': 'waiting…',
    'yourTurn': 'Your turn', 'theirTurn': 'Your opponent is thinking…', 'thinking': 'The computer is thinking…',
    'toMove': '{side} to move', 'watching': 'You are watching this game.',
    'won': 'You won! {score}', 'lost': 'You lost. {score}', 'drawn': 'Draw. {score}', 'winnerIs': '{side} wins. {score}',
    'reason.capture': 'more than 24 seeds captured', 'reason.draw': '24 seeds each', 'reason.no-moves': 'no move left: each player takes the seeds on their side', 'reason.repetition': 'a position came back',
    'undo': 'Undo', 'download': 'Download (OGN)', 'copyPos': 'Copy position', 'copied': 'Copied', 'analyseThis': 'Analyse',
    'share': 'Send this link to your friend:', 'copyLink': 'Copy link', 'resume.title': 'Continue on another device', 'resume.hint': 'Open this private link on your other phone or computer to play your side there. Keep it to yourself: whoever has it plays for you.', 'connecting': 'Connecting…', 'moves': 'Moves', 'keysHint': 'Keys {keys} play your houses.',
    'analysis.title': 'Analysis board', 'analysis.load': 'Load', 'analysis.start': 'Start', 'analysis.prev': 'Back', 'analysis.next': 'Forward', 'analysis.end': 'End',
    'analysis.move': 'Move', 'analysis.score': 'Value', 'analysis.line': 'Best line', 'analysis.depth': 'Engine search, every move to {d} plies; values in seeds for the side to move (repetitions counted); the loss is each move’s difference from the best. The coach and the review use this same analysis.', 'analysis.loss': 'Loss', 'analysis.database': 'Database', 'analysis.dbAwari': 'Database: the final difference in seeds captured from those now on the board, for the side to move; ≥ marks a lower bound.', 'analysis.dbAbapa': 'Database: how many of the {n} seeds now on the board the side to move ends with, with perfect play; ≥ marks a lower bound.', 'analysis.thinking': 'The engine is thinking…',
    'analysis.clickHint': 'Click a house to try a move; the engine values every legal move.', 'analysis.over': 'Game over: {score} ({reason})', 'position': 'Position',
    'err.not-your-turn': 'It is not your turn.', 'err.waiting-for-opponent': 'Your friend has not joined yet: the game starts when they open the link.', 'err.stale': 'The game moved on; try again.', 'err.game-over': 'The game is over.',
    'err.not-your-house': 'That house belongs to your opponent.', 'err.empty-house': 'That house is empty.',
    'err.must-feed': 'Your opponent has no seeds: you must give them some.', 'err.starves-opponent': 'That move would leave your opponent without seeds.',
    'err.not-a-player': 'You are watching: only the players can move.', 'err.unknown-game': 'There is no such game.', 'err.nothing-to-undo': 'There is nothing to take back.',
    'labelled': '{label}: {value}', 'board.label': 'Oware board', 'store.label': '{side}’s store: {n} seeds',
    'house.label': '{side}’s house {letter}, {n} seeds', 'house.label1': '{side}’s house {letter}, 1 seed', 'house.atRisk': 'can be taken now',
    'title.home': 'Play oware online', 'title.game': 'Game', 'title.computerGame': 'Game against the computer, level {n}', 'title.friendGame': 'Game between friends',
    'home.title': 'Play oware', 'home.playNow': 'Play now', 'home.inviteNow': 'Invite a friend', 'home.playNowHint': 'Play now: you are South against the computer at level 3. Invite: you get a link for a friend.', 'home.more': 'More ways to play',
    'theirTurnShort': 'their turn', 'waitingFriend': 'Waiting for your friend to open the link…',
    'myGames.title': 'My games', 'myGames.against': 'against {who}', 'myGames.move1': '1 move', 'myGames.moves': '{n} moves', 'myGames.forget': 'Remove from My games',
    'share.qr': 'QR code of the game’s link', 'share.qrHint': 'Or let your friend scan this code with their phone’s camera.', 'share.text': 'Play oware with me:', 'share.send': 'Send…',
    'share.localOnly': 'This address only works on this computer: your friend cannot open it. Start the server with --public-url and an address others can reach (see the README).',
    'backToGame': 'Back to the game', 'rematch': 'Rematch (sides swapped)', 'newGame': 'New game', 'sending': 'Sowing…',
    'why.browsing': 'You are looking at an earlier position: go back to the game to play.', 'why.waiting': 'Your friend has not opened the link yet: the game starts when they do.',
    'youPlay': 'You play {move}…', 'sidePlays': '{side} plays {move}…', 'lookingBack': 'Position after {move}',
    'analysis.variation': 'Variation', 'analysis.backToRecord': 'Back to the record',
    'notFound.title': 'Page not found', 'notFound.text': 'There is no page or game at this address. The link may be mistyped, or the game no longer exists.', 'notFound.home': 'Play a game',
    'theme': 'Colours', 'theme.system': 'as the system', 'theme.light': 'light', 'theme.dark': 'dark', 'sound': 'Sounds',
    'offline': 'You are offline: the app opens, but games need the connection.', 'install': 'Install the app', 'push.ask': 'Tell me when it is my move', 'push.on': 'Notifications on: you are told when it is your move.', 'push.off': 'Turn off', 'push.offDone': 'Notifications off', 'push.unsupported': 'This browser cannot tell you of moves while the page is closed.', 'push.denied': 'Notifications are blocked for this site: allow them in the browser’s settings to be told of moves.',
    'err.network': 'The server cannot be reached: games need the connection. Check it and try again.', 'err.bad-position': 'That is not a position: a position is 12 house counts, the two stores and the side to move, such as 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'err.bad-record': 'That is neither a game record, a move list nor a position.', 'err.illegal-in-record': 'Move {n} of the record is not legal here: the record is shown up to the move before it.',
    'err.busy': 'The engine is busy; try again in a moment.', 'err.rate-limited': 'Too many requests at once; wait a moment.', 'err.storage': 'The server could not save that; try again.',
    'err.undo-not-allowed': 'Moves can only be taken back against the computer.', 'err.bad-move': 'That is not a move.', 'err.illegal-move': 'That move is not legal here.', 'err.too-many-connections': 'The server is full; try again later.',
    'resign': 'Resign', 'resign.confirm': 'Really resign?', 'offer.draw': 'Offer a draw', 'offer.takeback': 'Ask to take back',
    'offer.sent.draw': 'You offered a draw: waiting for the answer.', 'offer.sent.takeback': 'You asked to take back your last move: waiting for the answer.',
    'offer.received.draw': 'Your opponent offers a draw.', 'offer.received.takeback': 'Your opponent asks to take back their last move.',
    'offer.accept': 'Accept', 'offer.decline': 'Decline', 'offer.withdraw': 'Withdraw', 'offer.rematchReady': 'Your friend started a rematch, with the sides swapped.', 'offer.openRematch': 'Play the rematch',
    'reason.resign': 'by resignation', 'reason.agreement': 'by agreement', 'clock.increment': '{n} min + {s} s a move',
    'err.no-offer': 'There is no offer to answer.', 'err.friends-only': 'That is for games between friends.', 'err.not-over': 'The game is not over yet.', 'err.offer-pending': 'An offer is already waiting for an answer.',
    'err.too-many-games': 'Too many new games from this address: wait a while before starting another.', 'err.not-found': 'There is no such page.',
    'err.shutting-down': 'The server is restarting; try again in a moment.',
    'err.bad-message': 'The page sent something the server does not understand; reload the page.', 'err.too-large': 'That message is too long for the server.', 'err.bad-request': 'The server could not read that request; reload the page and try again.',
    'err.bad-rules': 'Those rules are not offered: choose abapa or awari.', 'err.bad-level': 'That level is not offered: choose 1 to 10.', 'err.bad-side': 'Choose South or North.', 'err.bad-mode': 'Choose to play the computer or a friend.',
    'err.internal': 'Something went wrong on the server; try again.', 'err.bad-language': 'That language is not offered: choose Català, Español, English or Français.', 'err.too-many-moves': 'That game is longer than any real game; it cannot be analysed.', 'err.bad-player': 'Choose South or North, or both players.', 'err.damaged': 'This game could not be read back from the server’s storage.',
    'err.foreign-origin': 'The server refused a request from another site.', 'err.unknown-host': 'The server does not answer to the name in this address: open it at its own address.', 'err.not-json': 'The page sent something the server does not understand; reload the page.',
    'err.slow-request': 'The request took too long to arrive; check the connection and try again.', 'err.too-many-analyses': 'Too many analyses at once from this address; wait for the answers.',
    'err.too-many-sockets': 'Too many pages open from this address; close some and reload this one.',
  },
  fr: {
    'nav.learn': 'Leçons', 'learn.title': 'Leçons', 'learn.intro': 'De courtes leçons de la stratégie que transmettent les anciens : trouvez le coup sur le plateau, et le coach dit pourquoi.', 'learn.step': 'Étape {n} sur {total}', 'learn.next': 'Étape suivante', 'learn.nextLesson': 'Leçon suivante', 'learn.back': 'Toutes les leçons', 'learn.progress': '{done} étapes sur {total} faites', 'learn.clickHint': 'Cliquez sur la case à semer.',
    'err.bad-subscription': 'L’abonnement aux notifications de ce navigateur est inutilisable.',
    'err.mail-off': 'Ce serveur n’envoie pas d’e-mail.', 'err.too-many-mails': 'Trop de messages de confirmation ont été demandés : réessayez dans une heure.', 'err.bad-email': 'Cette adresse e-mail est inutilisable.', 'err.not-correspondence': 'L’e-mail n’est proposé que dans les parties avec des jours par coup.', 'err.bad-code': 'Ce lien est inconnu, déjà utilisé ou expiré : demandez un nouveau message depuis la page de la partie.', 'mail.label': 'Ou par e-mail :', 'mail.placeholder': 'vous@exemple.fr', 'mail.ask': 'M’écrire quand c’est mon tour', 'mail.sent': 'Un message part vers {email} : ouvrez son lien pour confirmer l’adresse.', 'mail.on': 'E-mail activé : vous êtes prévenu de vos coups à {email}.', 'mail.off': 'Arrêter les e-mails', 'mail.offDone': 'Plus d’e-mail pour cette partie', 'mail.confirmTitle': 'Votre adresse e-mail', 'mail.confirming': 'Confirmation de votre adresse…', 'mail.confirmed': 'Votre adresse est confirmée : vous recevrez un message quand ce sera votre tour, et un rappel quand il restera un jour.', 'mail.noCode': 'Ce lien n’a pas de code de confirmation : ouvrez le lien entier depuis le message.', 'mail.toGame': 'Retour à la partie', 'mail.unsubTitle': 'Arrêter les e-mails de cette partie', 'mail.unsubAsk': 'Cette adresse ne recevra plus de message pour cette partie.', 'mail.unsubDone': 'C’est fait : plus aucun message pour cette partie ne sera envoyé à cette adresse.',
    'nav.puzzles': 'Problèmes', 'puzzle.title': 'Problèmes', 'puzzle.theme': 'Thème', 'puzzle.allThemes': 'Tous les thèmes ({n})', 'puzzle.hint': 'Indice', 'puzzle.solution': 'Voir la solution', 'puzzle.next': 'Problème suivant', 'puzzle.clickHint': 'Un seul coup gagne : cliquez sur la case à semer.', 'puzzle.fromMaster': 'D’une partie de maîtres.', 'puzzle.fromSelfPlay': 'D’une partie du moteur contre lui-même.',
    'err.bad-theme': 'Ce thème de problèmes n’existe pas.', 'err.bad-lang': 'Cette langue n’est pas proposée : choisissez ca, es, en ou fr.',
    'nav.play': 'Jouer', 'nav.analysis': 'Analyse', 'nav.rules': 'Règles',
    'home.computer': 'Jouer contre l’ordinateur', 'home.friend': 'Jouer avec un ami', 'home.open': 'Ouvrir une partie ou une position',
    'home.friendHint': 'Vous recevez un lien à envoyer. Le premier qui l’ouvre joue l’autre camp ; les suivants regardent. Jusqu’au premier coup, vous pouvez créer un nouveau lien et libérer la place.',
    'home.openHint': 'Collez une partie (OGN), une liste de coups comme FfEa ou une position comme 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'level': 'Niveau', 'side': 'Votre camp', 'side.S': 'Sud (joue en premier)', 'side.N': 'Nord', 'side.random': 'Au hasard',
    'ruleset': 'Règles', 'rules.abapa': 'Abapa (internationales)', 'rules.awari': 'Awari (recherche)',
    'play': 'Jouer', 'createLink': 'Créer un lien', 'clock': 'Pendule', 'clock.none': 'aucune', 'clock.minutes': '{n} min chacun', 'reason.time': 'temps écoulé', 'open': 'Analyser',
    'south': 'Sud', 'north': 'Nord', 'you': 'Vous', 'computer': 'Ordinateur (niveau {n})', 'friend': 'Ami', 'waiting': 'en attente…',
    'yourTurn': 'À vous de jouer', 'theirTurn': 'Votre adversaire réfléchit…', 'thinking': 'L’ordinateur réfléchit…',
    'toMove': '{side} joue', 'watching': 'Vous regardez cette partie.',
    'won': 'Vous avez gagné ! {score}', 'lost': 'Vous avez perdu. {score}', 'drawn': 'Partie nulle. {score}', 'winnerIs': '{side} gagne. {score}',
    'reason.capture': 'plus de 24 graines prises', 'reason.draw': '24 graines chacun', 'reason.no-moves': 'plus aucun coup : chacun prend les graines de son côté', 'reason.repetition': 'une position s’est répétée',
    'undo': 'Reprendre le coup', 'download': 'Télécharger (OGN)', 'copyPos': 'Copier la position', 'copied': 'Copié', 'analyseThis': 'Analyser',
    'share': 'Envoyez ce lien à votre ami :', 'copyLink': 'Copier le lien', 'resume.title': 'Continuer sur un autre appareil', 'resume.hint': 'Ouvrez ce lien privé sur votre autre téléphone ou ordinateur pour y jouer votre camp. Gardez-le pour vous : qui l’a joue à votre place.', 'connecting': 'Connexion…', 'moves': 'Coups', 'keysHint': 'Les touches {keys} jouent vos cases.',
    'analysis.title': 'Plateau d’analyse', 'analysis.load': 'Charger', 'analysis.start': 'Début', 'analysis.prev': 'Reculer', 'analysis.next': 'Avancer', 'analysis.end': 'Fin',
    'analysis.move': 'Coup', 'analysis.score': 'Valeur', 'analysis.line': 'Meilleure suite', 'analysis.depth': 'Recherche du moteur, chaque coup à {d} demi-coups ; valeurs en graines pour le camp au trait (répétitions comptées) ; la perte est l’écart de chaque coup avec le meilleur. L’entraîneur et la revue utilisent cette même analyse.', 'analysis.loss': 'Perte', 'analysis.database': 'Base de données', 'analysis.dbAwari': 'Base de données : l’écart final en graines capturées parmi celles qui sont sur le plateau, pour le camp au trait ; ≥ indique un minimum.', 'analysis.dbAbapa': 'Base de données : combien des {n} graines sur le plateau le camp au trait finit par prendre, en jeu parfait ; ≥ indique un minimum.', 'analysis.thinking': 'Le moteur réfléchit…',
    'analysis.clickHint': 'Cliquez une case pour essayer un coup ; le moteur évalue chaque coup légal.', 'analysis.over': 'Partie finie : {score} ({reason})', 'position': 'Position',
    'err.not-your-turn': 'Ce n’est pas votre tour.', 'err.waiting-for-opponent': 'Votre ami n’a pas encore rejoint la partie : elle commence quand il ouvre le lien.', 'err.stale': 'La partie a avancé ; réessayez.', 'err.game-over': 'La partie est finie.',
    'err.not-your-house': 'Cette case est à votre adversaire.', 'err.empty-house': 'Cette case est vide.',
    'err.must-feed': 'Votre adversaire n’a plus de graines : vous devez lui en donner.', 'err.starves-opponent': 'Ce coup laisserait votre adversaire sans graines.',
    'err.not-a-player': 'Vous regardez : seuls les joueurs jouent.', 'err.unknown-game': 'Cette partie n’existe pas.', 'err.nothing-to-undo': 'Rien à annuler.',
    'labelled': '{label} : {value}', 'board.label': 'Plateau d’awalé', 'store.label': 'Grenier de {side} : {n} graines',
    'house.label': 'Case {letter} de {side}, {n} graines', 'house.label1': 'Case {letter} de {side}, 1 graine', 'house.atRisk': 'peut être prise maintenant',
    'title.home': 'Jouer à l’awalé en ligne', 'title.game': 'Partie', 'title.computerGame': 'Partie contre l’ordinateur, niveau {n}', 'title.friendGame': 'Partie entre amis',
    'home.title': 'Jouer à l’awalé', 'home.playNow': 'Jouer maintenant', 'home.inviteNow': 'Inviter un ami', 'home.playNowHint': 'Jouer maintenant : vous êtes Sud contre l’ordinateur au niveau 3. Inviter : vous recevez un lien pour un ami.', 'home.more': 'Autres façons de jouer',
    'theirTurnShort': 'à l’adversaire', 'waitingFriend': 'En attente de votre ami, qui doit ouvrir le lien…',
    'myGames.title': 'Mes parties', 'myGames.against': 'contre {who}', 'myGames.move1': '1 coup', 'myGames.moves': '{n} coups', 'myGames.forget': 'Retirer de Mes parties',
    'share.qr': 'Code QR du lien de la partie', 'share.qrHint': 'Ou faites scanner ce code par l’appareil photo du téléphone de votre ami.', 'share.text': 'Joue à l’awalé avec moi :', 'share.send': 'Envoyer…',
    'share.localOnly': 'Cette adresse ne marche que sur cet ordinateur : votre ami ne pourra pas l’ouvrir. Lancez le serveur avec --public-url et une adresse joignable (voir le README).',
    'backToGame': 'Retour à la partie', 'rematch': 'Revanche (camps inversés)', 'newGame': 'Nouvelle partie', 'sending': 'Semis…',
    'why.browsing': 'Vous regardez une position passée : revenez à la partie pour jouer.', 'why.waiting': 'Votre ami n’a pas encore ouvert le lien : la partie commence quand il le fait.',
    'youPlay': 'Vous jouez {move}…', 'sidePlays': '{side} joue {move}…', 'lookingBack': 'Position après {move}',
    'analysis.variation': 'Variante', 'analysis.backToRecord': 'Retour à la partie',
    'notFound.title': 'Page introuvable', 'notFound.text': 'Il n’y a ni page ni partie à cette adresse. Le lien est peut-être mal recopié, ou la partie n’existe plus.', 'notFound.home': 'Jouer une partie',
    'theme': 'Couleurs', 'theme.system': 'comme le système', 'theme.light': 'claires', 'theme.dark': 'sombres', 'sound': 'Sons',
    'offline': 'Vous êtes hors ligne : l’application s’ouvre, mais les parties ont besoin de la connexion.', 'install': 'Installer l’application', 'push.ask': 'Me prévenir quand c’est mon tour', 'push.on': 'Notifications activées : vous êtes prévenu quand c’est votre tour.', 'push.off': 'Désactiver', 'push.offDone': 'Notifications désactivées', 'push.unsupported': 'Ce navigateur ne peut pas vous prévenir des coups quand la page est fermée.', 'push.denied': 'Les notifications sont bloquées pour ce site : autorisez-les dans les réglages du navigateur pour être prévenu des coups.',
    'err.network': 'Le serveur est injoignable : les parties ont besoin de la connexion. Vérifiez-la et réessayez.', 'err.bad-position': 'Ce n’est pas une position : une position, ce sont les 12 cases, les deux greniers et le camp au trait, comme 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'err.bad-record': 'Ce n’est ni une partie, ni une liste de coups, ni une position.', 'err.illegal-in-record': 'Le coup {n} de la partie n’est pas légal ici : la partie est montrée jusqu’au coup d’avant.',
    'err.busy': 'Le moteur est occupé ; réessayez dans un instant.', 'err.rate-limited': 'Trop de demandes à la fois ; attendez un instant.', 'err.storage': 'Le serveur n’a pas pu l’enregistrer ; réessayez.',
    'err.undo-not-allowed': 'On ne reprend un coup que contre l’ordinateur.', 'err.bad-move': 'Ce n’est pas un coup.', 'err.illegal-move': 'Ce coup n’est pas légal ici.', 'err.too-many-connections': 'Le serveur est plein ; réessayez plus tard.',
    'resign': 'Abandonner', 'resign.confirm': 'Vraiment abandonner ?', 'offer.draw': 'Proposer la nulle', 'offer.takeback': 'Demander à reprendre',
    'offer.sent.draw': 'Vous avez proposé la nulle : en attente de la réponse.', 'offer.sent.takeback': 'Vous avez demandé à reprendre votre dernier coup : en attente de la réponse.',
    'offer.received.draw': 'Votre adversaire propose la nulle.', 'offer.received.takeback': 'Votre adversaire demande à reprendre son dernier coup.',
    'offer.accept': 'Accepter', 'offer.decline': 'Refuser', 'offer.withdraw': 'Retirer', 'offer.rematchReady': 'Votre ami a lancé une revanche, camps inversés.', 'offer.openRematch': 'Jouer la revanche',
    'reason.resign': 'par abandon', 'reason.agreement': 'd’un commun accord', 'clock.increment': '{n} min + {s} s par coup',
    'err.no-offer': 'Il n’y a pas de proposition à laquelle répondre.', 'err.friends-only': 'C’est pour les parties entre amis.', 'err.not-over': 'La partie n’est pas finie.', 'err.offer-pending': 'Une proposition attend déjà sa réponse.',
    'err.too-many-games': 'Trop de nouvelles parties depuis cette adresse : attendez un peu avant d’en commencer une autre.', 'err.not-found': 'Cette page n’existe pas.',
    'err.shutting-down': 'Le serveur redémarre ; réessayez dans un instant.',
    'err.bad-message': 'La page a envoyé un message que le serveur ne comprend pas ; rechargez la page.', 'err.too-large': 'Ce message est trop long pour le serveur.', 'err.bad-request': 'Le serveur n’a pas pu lire cette demande ; rechargez la page et réessayez.',
    'err.bad-rules': 'Ces règles ne sont pas proposées : choisissez abapa ou awari.', 'err.bad-level': 'Ce niveau n’est pas proposé : choisissez de 1 à 10.', 'err.bad-side': 'Choisissez Sud ou Nord.', 'err.bad-mode': 'Choisissez de jouer contre l’ordinateur ou contre un ami.',
    'err.internal': 'Une erreur s’est produite sur le serveur ; réessayez.', 'err.bad-language': 'Cette langue n’est pas proposée : choisissez Català, Español, English ou Français.', 'err.too-many-moves': 'Cette partie est plus longue qu’aucune partie réelle ; elle ne peut pas être analysée.', 'err.bad-player': 'Choisissez Sud ou Nord, ou les deux joueurs.', 'err.damaged': 'Cette partie n’a pas pu être relue depuis le stockage du serveur.',
    'err.foreign-origin': 'Le serveur a refusé une demande venue d’un autre site.', 'err.unknown-host': 'Le serveur ne répond pas au nom de cette adresse : ouvrez-le à sa propre adresse.', 'err.not-json': 'La page a envoyé un message que le serveur ne comprend pas ; rechargez la page.',
    'err.slow-request': 'La demande a mis trop de temps à arriver ; vérifiez la connexion et réessayez.', 'err.too-many-analyses': 'Trop d’analyses à la fois depuis cette adresse ; attendez les réponses.',
    'err.too-many-sockets': 'Trop de pages ouvertes depuis cette adresse ; fermez-en quelques-unes et rechargez celle-ci.',
  },
  es: {
    'nav.learn': 'Aprende', 'learn.title': 'Lecciones', 'learn.intro': 'Lecciones cortas de la estrategia que enseñan los jugadores veteranos: encuentra la jugada en el tablero, y el entrenador te dice por qué.', 'learn.step': 'Paso {n} de {total}', 'learn.next': 'Paso siguiente', 'learn.nextLesson': 'Lección siguiente', 'learn.back': 'Todas las lecciones', 'learn.progress': '{done} de {total} pasos hechos', 'learn.clickHint': 'Haz clic en la casa que quieres sembrar.',
    'err.bad-subscription': 'No se puede usar la suscripción a notificaciones de este navegador.',
    'err.mail-off': 'Este servidor no envía correos.', 'err.too-many-mails': 'Se han pedido demasiados correos de confirmación: vuelve a intentarlo dentro de una hora.', 'err.bad-email': 'No se puede usar esa dirección de correo.', 'err.not-correspondence': 'El correo solo se ofrece en partidas con días por jugada.', 'err.bad-code': 'Este enlace es desconocido, ya usado o caducado: pide un correo nuevo en la página de la partida.', 'mail.label': 'O por correo:', 'mail.placeholder': 'tu@ejemplo.es', 'mail.ask': 'Escríbeme cuando me toque', 'mail.sent': 'Va un correo a {email}: abre su enlace para confirmar la dirección.', 'mail.on': 'Correo activado: te avisamos de tus jugadas en {email}.', 'mail.off': 'Dejar de recibir correos', 'mail.offDone': 'No más correos de esta partida', 'mail.confirmTitle': 'Tu dirección de correo', 'mail.confirming': 'Confirmando tu dirección…', 'mail.confirmed': 'Tu dirección está confirmada: recibirás un correo cuando te toque, y un recordatorio cuando quede un día.', 'mail.noCode': 'Este enlace no tiene código de confirmación: abre el enlace entero desde el correo.', 'mail.toGame': 'Volver a la partida', 'mail.unsubTitle': 'Dejar de recibir correos de esta partida', 'mail.unsubAsk': 'Esta dirección no recibirá más correos de esta partida.', 'mail.unsubDone': 'Hecho: no se enviarán más correos de esta partida a esta dirección.',
    'nav.puzzles': 'Problemas', 'puzzle.title': 'Problemas', 'puzzle.theme': 'Tema', 'puzzle.allThemes': 'Todos los temas ({n})', 'puzzle.hint': 'Pista', 'puzzle.solution': 'Ver la solución', 'puzzle.next': 'Problema siguiente', 'puzzle.clickHint': 'Una sola jugada gana: haz clic en la casa que quieres sembrar.', 'puzzle.fromMaster': 'De una partida de maestros.', 'puzzle.fromSelfPlay': 'De una partida del motor contra sí mismo.',
    'err.bad-theme': 'No existe ese tema de problemas.', 'err.bad-lang': 'Ese idioma no está disponible: elige ca, es, en o fr.',
    'nav.play': 'Jugar', 'nav.analysis': 'Análisis', 'nav.rules': 'Reglas',
    'home.computer': 'Jugar contra el ordenador', 'home.friend': 'Jugar con un amigo', 'home.open': 'Abrir una partida o una posición',
    'home.friendHint': 'Recibes un enlace para enviar. El primero que lo abra juega el otro lado; los demás miran. Hasta la primera jugada puedes crear un enlace nuevo y liberar el puesto.',
    'home.openHint': 'Pega una partida (OGN), una lista de jugadas como FfEa o una posición como 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'level': 'Nivel', 'side': 'Tu lado', 'side.S': 'Sur (sale primero)', 'side.N': 'Norte', 'side.random': 'Al azar',
    'ruleset': 'Reglas', 'rules.abapa': 'Abapa (internacionales)', 'rules.awari': 'Awari (investigación)',
    'play': 'Jugar', 'createLink': 'Crear un enlace', 'clock': 'Reloj', 'clock.none': 'sin reloj', 'clock.minutes': '{n} min cada uno', 'reason.time': 'se acabó el tiempo', 'open': 'Analizar',
    'south': 'Sur', 'north': 'Norte', 'you': 'Tú', 'computer': 'Ordenador (nivel {n})', 'friend': 'Amigo', 'waiting': 'esperando…',
    'yourTurn': 'Te toca', 'theirTurn': 'Tu rival está pensando…', 'thinking': 'El ordenador está pensando…',
    'toMove': 'Juega {side}', 'watching': 'Estás mirando esta partida.',
    'won': '¡Has ganado! {score}', 'lost': 'Has perdido. {score}', 'drawn': 'Tablas. {score}', 'winnerIs': 'Gana {side}. {score}',
    'reason.capture': 'más de 24 semillas capturadas', 'reason.draw': '24 semillas cada uno', 'reason.no-moves': 'no quedan jugadas: cada uno se queda las semillas de su lado', 'reason.repetition': 'se repitió una posición',
    'undo': 'Deshacer', 'download': 'Descargar (OGN)', 'copyPos': 'Copiar la posición', 'copied': 'Copiado', 'analyseThis': 'Analizar',
    'share': 'Envía este enlace a tu amigo:', 'copyLink': 'Copiar el enlace', 'resume.title': 'Seguir en otro dispositivo', 'resume.hint': 'Abre este enlace privado en tu otro teléfono u ordenador para jugar tu lado allí. No lo compartas: quien lo tenga juega por ti.', 'connecting': 'Conectando…', 'moves': 'Jugadas', 'keysHint': 'Las teclas {keys} juegan tus casillas.',
    'analysis.title': 'Tablero de análisis', 'analysis.load': 'Cargar', 'analysis.start': 'Inicio', 'analysis.prev': 'Atrás', 'analysis.next': 'Adelante', 'analysis.end': 'Final',
    'analysis.move': 'Jugada', 'analysis.score': 'Valor', 'analysis.line': 'Mejor línea', 'analysis.depth': 'Búsqueda del motor, cada jugada a {d} medias jugadas; valores en semillas para el lado que juega (con repeticiones); la pérdida es la diferencia de cada jugada con la mejor. El entrenador y la revisión usan este mismo análisis.', 'analysis.loss': 'Pérdida', 'analysis.database': 'Base de datos', 'analysis.dbAwari': 'Base de datos: la diferencia final en semillas capturadas de las que hay en el tablero, para el lado que juega; ≥ indica un mínimo.', 'analysis.dbAbapa': 'Base de datos: cuántas de las {n} semillas del tablero acaba ganando el lado que juega, con juego perfecto; ≥ indica un mínimo.', 'analysis.thinking': 'El motor está pensando…',
    'analysis.clickHint': 'Pulsa una casilla para probar una jugada; el motor valora cada jugada legal.', 'analysis.over': 'Partida terminada: {score} ({reason})', 'position': 'Posición',
    'err.not-your-turn': 'No es tu turno.', 'err.waiting-for-opponent': 'Tu amigo aún no se ha unido: la partida empieza cuando abra el enlace.', 'err.stale': 'La partida ha avanzado; inténtalo otra vez.', 'err.game-over': 'La partida ha terminado.',
    'err.not-your-house': 'Esa casilla es de tu rival.', 'err.empty-house': 'Esa casilla está vacía.',
    'err.must-feed': 'Tu rival no tiene semillas: debes darle alguna.', 'err.starves-opponent': 'Esa jugada dejaría a tu rival sin semillas.',
    'err.not-a-player': 'Estás mirando: solo juegan los jugadores.', 'err.unknown-game': 'No existe esa partida.', 'err.nothing-to-undo': 'No hay nada que deshacer.',
    'labelled': '{label}: {value}', 'board.label': 'Tablero de oware', 'store.label': 'Granero de {side}: {n} semillas',
    'house.label': 'Casilla {letter} de {side}, {n} semillas', 'house.label1': 'Casilla {letter} de {side}, 1 semilla', 'house.atRisk': 'se puede capturar ahora',
    'title.home': 'Juega al oware en línea', 'title.game': 'Partida', 'title.computerGame': 'Partida contra el ordenador, nivel {n}', 'title.friendGame': 'Partida entre amigos',
    'home.title': 'Juega al oware', 'home.playNow': 'Jugar ya', 'home.inviteNow': 'Invitar a un amigo', 'home.playNowHint': 'Jugar ya: eres Sur contra el ordenador en el nivel 3. Invitar: recibes un enlace para un amigo.', 'home.more': 'Otras formas de jugar',
    'theirTurnShort': 'le toca al rival', 'waitingFriend': 'Esperando a que tu amigo abra el enlace…',
    'myGames.title': 'Mis partidas', 'myGames.against': 'contra {who}', 'myGames.move1': '1 jugada', 'myGames.moves': '{n} jugadas', 'myGames.forget': 'Quitar de Mis partidas',
    'share.qr': 'Código QR del enlace de la partida', 'share.qrHint': 'O deja que tu amigo escanee este código con la cámara del móvil.', 'share.text': 'Juega al oware conmigo:', 'share.send': 'Enviar…',
    'share.localOnly': 'Esta dirección solo funciona en este ordenador: tu amigo no podrá abrirla. Arranca el servidor con --public-url y una dirección accesible (mira el README).',
    'backToGame': 'Volver a la partida', 'rematch': 'Revancha (lados cambiados)', 'newGame': 'Partida nueva', 'sending': 'Sembrando…',
    'why.browsing': 'Estás viendo una posición anterior: vuelve a la partida para jugar.', 'why.waiting': 'Tu amigo aún no ha abierto el enlace: la partida empieza cuando lo haga.',
    'youPlay': 'Juegas {move}…', 'sidePlays': '{side} juega {move}…', 'lookingBack': 'Posición tras {move}',
    'analysis.variation': 'Variante', 'analysis.backToRecord': 'Volver a la partida',
    'notFound.title': 'Página no encontrada', 'notFound.text': 'No hay ninguna página ni partida en esta dirección. Quizá el enlace está mal copiado, o la partida ya no existe.', 'notFound.home': 'Jugar una partida',
    'theme': 'Colores', 'theme.system': 'como el sistema', 'theme.light': 'claros', 'theme.dark': 'oscuros', 'sound': 'Sonidos',
    'offline': 'Estás sin conexión: la aplicación se abre, pero las partidas necesitan la conexión.', 'install': 'Instalar la aplicación', 'push.ask': 'Avísame cuando me toque', 'push.on': 'Notificaciones activadas: te avisamos cuando te toque.', 'push.off': 'Desactivar', 'push.offDone': 'Notificaciones desactivadas', 'push.unsupported': 'Este navegador no puede avisarte de las jugadas con la página cerrada.', 'push.denied': 'Las notificaciones están bloqueadas para este sitio: permítelas en los ajustes del navegador para que te avisemos de las jugadas.',
    'err.network': 'No se puede contactar con el servidor: las partidas necesitan la conexión. Compruébala y vuelve a probar.', 'err.bad-position': 'Eso no es una posición: una posición son las 12 casillas, los dos graneros y el lado que juega, como 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'err.bad-record': 'Eso no es ni una partida, ni una lista de jugadas, ni una posición.', 'err.illegal-in-record': 'La jugada {n} de la partida no es legal aquí: la partida se muestra hasta la jugada anterior.',
    'err.busy': 'El motor está ocupado; vuelve a probar en un momento.', 'err.rate-limited': 'Demasiadas peticiones a la vez; espera un momento.', 'err.storage': 'El servidor no ha podido guardarlo; vuelve a probar.',
    'err.undo-not-allowed': 'Solo se pueden deshacer jugadas contra el ordenador.', 'err.bad-move': 'Eso no es una jugada.', 'err.illegal-move': 'Esa jugada no es legal aquí.', 'err.too-many-connections': 'El servidor está lleno; vuelve a probar más tarde.',
    'resign': 'Abandonar', 'resign.confirm': '¿Seguro que abandonas?', 'offer.draw': 'Ofrecer tablas', 'offer.takeback': 'Pedir deshacer',
    'offer.sent.draw': 'Has ofrecido tablas: esperando la respuesta.', 'offer.sent.takeback': 'Has pedido deshacer tu última jugada: esperando la respuesta.',
    'offer.received.draw': 'Tu rival ofrece tablas.', 'offer.received.takeback': 'Tu rival pide deshacer su última jugada.',
    'offer.accept': 'Aceptar', 'offer.decline': 'Rechazar', 'offer.withdraw': 'Retirar', 'offer.rematchReady': 'Tu amigo ha empezado una revancha, con los lados cambiados.', 'offer.openRematch': 'Jugar la revancha',
    'reason.resign': 'por abandono', 'reason.agreement': 'de mutuo acuerdo', 'clock.increment': '{n} min + {s} s por jugada',
    'err.no-offer': 'No hay ninguna propuesta que responder.', 'err.friends-only': 'Eso es para partidas entre amigos.', 'err.not-over': 'La partida aún no ha terminado.', 'err.offer-pending': 'Ya hay una propuesta esperando respuesta.',
    'err.too-many-games': 'Demasiadas partidas nuevas desde esta dirección: espera un rato antes de empezar otra.', 'err.not-found': 'Esa página no existe.',
    'err.shutting-down': 'El servidor se está reiniciando; vuelve a probar en un momento.',
    'err.bad-message': 'La página ha enviado algo que el servidor no entiende; vuelve a cargar la página.', 'err.too-large': 'Ese mensaje es demasiado largo para el servidor.', 'err.bad-request': 'El servidor no ha podido leer esa petición; vuelve a cargar la página y prueba otra vez.',
    'err.bad-rules': 'Esas reglas no se ofrecen: elige abapa o awari.', 'err.bad-level': 'Ese nivel no se ofrece: elige del 1 al 10.', 'err.bad-side': 'Elige Sur o Norte.', 'err.bad-mode': 'Elige jugar contra el ordenador o contra un amigo.',
    'err.internal': 'Algo ha fallado en el servidor; prueba otra vez.', 'err.bad-language': 'Ese idioma no se ofrece: elige Català, Español, English o Français.', 'err.too-many-moves': 'Esa partida es más larga que cualquier partida real; no se puede analizar.', 'err.bad-player': 'Elige Sur o Norte, o los dos jugadores.', 'err.damaged': 'No se ha podido volver a leer esta partida del almacenamiento del servidor.',
    'err.foreign-origin': 'El servidor ha rechazado una petición de otro sitio.', 'err.unknown-host': 'El servidor no responde al nombre de esta dirección: ábrelo en su propia dirección.', 'err.not-json': 'La página ha enviado algo que el servidor no entiende; vuelve a cargar la página.',
    'err.slow-request': 'La petición ha tardado demasiado en llegar; comprueba la conexión y vuelve a probar.', 'err.too-many-analyses': 'Demasiados análisis a la vez desde esta dirección; espera las respuestas.',
    'err.too-many-sockets': 'Demasiadas páginas abiertas desde esta dirección; cierra algunas y vuelve a cargar esta.',
  },
  ca: {
    'nav.learn': 'Aprèn', 'learn.title': 'Lliçons', 'learn.intro': 'Lliçons curtes de l’estratègia que ensenyen els jugadors veterans: troba la jugada al tauler, i l’entrenador et diu per què.', 'learn.step': 'Pas {n} de {total}', 'learn.next': 'Pas següent', 'learn.nextLesson': 'Lliçó següent', 'learn.back': 'Totes les lliçons', 'learn.progress': '{done} de {total} passos fets', 'learn.clickHint': 'Fes clic a la casa que vols sembrar.',
    'err.bad-subscription': 'No es pot fer servir la subscripció a notificacions d’aquest navegador.',
    'err.mail-off': 'Aquest servidor no envia correus.', 'err.too-many-mails': 'S’han demanat massa correus de confirmació: torna-ho a provar d’aquí a una hora.', 'err.bad-email': 'No es pot fer servir aquesta adreça de correu.', 'err.not-correspondence': 'El correu només s’ofereix en partides amb dies per jugada.', 'err.bad-code': 'Aquest enllaç és desconegut, ja fet servir o caducat: demana un correu nou a la pàgina de la partida.', 'mail.label': 'O per correu:', 'mail.placeholder': 'tu@exemple.cat', 'mail.ask': 'Escriu-me quan em toqui', 'mail.sent': 'Va un correu a {email}: obre’n l’enllaç per confirmar l’adreça.', 'mail.on': 'Correu activat: t’avisem de les teves jugades a {email}.', 'mail.off': 'Deixa de rebre correus', 'mail.offDone': 'No més correus d’aquesta partida', 'mail.confirmTitle': 'La teva adreça de correu', 'mail.confirming': 'Confirmant la teva adreça…', 'mail.confirmed': 'La teva adreça està confirmada: rebràs un correu quan et toqui, i un recordatori quan quedi un dia.', 'mail.noCode': 'Aquest enllaç no té codi de confirmació: obre l’enllaç sencer des del correu.', 'mail.toGame': 'Torna a la partida', 'mail.unsubTitle': 'Deixa de rebre correus d’aquesta partida', 'mail.unsubAsk': 'Aquesta adreça no rebrà més correus d’aquesta partida.', 'mail.unsubDone': 'Fet: no s’enviaran més correus d’aquesta partida a aquesta adreça.',
    'nav.puzzles': 'Problemes', 'puzzle.title': 'Problemes', 'puzzle.theme': 'Tema', 'puzzle.allThemes': 'Tots els temes ({n})', 'puzzle.hint': 'Pista', 'puzzle.solution': 'Mostra la solució', 'puzzle.next': 'Problema següent', 'puzzle.clickHint': 'Només una jugada guanya: fes clic a la casa que vols sembrar.', 'puzzle.fromMaster': 'D’una partida de mestres.', 'puzzle.fromSelfPlay': 'D’una partida del motor contra ell mateix.',
    'err.bad-theme': 'Aquest tema de problemes no existeix.', 'err.bad-lang': 'Aquesta llengua no està disponible: tria ca, es, en o fr.',
    'nav.play': 'Jugar', 'nav.analysis': 'Anàlisi', 'nav.rules': 'Regles',
    'home.computer': 'Jugar contra l’ordinador', 'home.friend': 'Jugar amb un amic', 'home.open': 'Obrir una partida o una posició',
    'home.friendHint': 'Rebràs un enllaç per enviar. El primer que l’obri juga l’altre costat; els altres miren. Fins a la primera jugada pots crear un enllaç nou i alliberar el lloc.',
    'home.openHint': 'Enganxa una partida (OGN), una llista de jugades com FfEa o una posició com 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'level': 'Nivell', 'side': 'El teu costat', 'side.S': 'Sud (surt primer)', 'side.N': 'Nord', 'side.random': 'A l’atzar',
    'ruleset': 'Regles', 'rules.abapa': 'Abapa (internacionals)', 'rules.awari': 'Awari (recerca)',
    'play': 'Jugar', 'createLink': 'Crear un enllaç', 'clock': 'Rellotge', 'clock.none': 'sense rellotge', 'clock.minutes': '{n} min cadascú', 'reason.time': 's’ha acabat el temps', 'open': 'Analitzar',
    'south': 'Sud', 'north': 'Nord', 'you': 'Tu', 'computer': 'Ordinador (nivell {n})', 'friend': 'Amic', 'waiting': 'esperant…',
    'yourTurn': 'Et toca', 'theirTurn': 'El teu rival està pensant…', 'thinking': 'L’ordinador està pensant…',
    'toMove': 'Juga {side}', 'watching': 'Estàs mirant aquesta partida.',
    'won': 'Has guanyat! {score}', 'lost': 'Has perdut. {score}', 'drawn': 'Taules. {score}', 'winnerIs': 'Guanya {side}. {score}',
    'reason.capture': 'més de 24 llavors capturades', 'reason.draw': '24 llavors cadascú', 'reason.no-moves': 'no queden jugades: cadascú es queda les llavors del seu costat', 'reason.repetition': 's’ha repetit una posició',
    'undo': 'Desfer', 'download': 'Descarregar (OGN)', 'copyPos': 'Copiar la posició', 'copied': 'Copiat', 'analyseThis': 'Analitzar',
    'share': 'Envia aquest enllaç al teu amic:', 'copyLink': 'Copiar l’enllaç', 'resume.title': 'Continuar en un altre dispositiu', 'resume.hint': 'Obre aquest enllaç privat a l’altre telèfon o ordinador per jugar-hi el teu costat. No el comparteixis: qui el tingui juga per tu.', 'connecting': 'Connectant…', 'moves': 'Jugades', 'keysHint': 'Les tecles {keys} juguen les teves caselles.',
    'analysis.title': 'Tauler d’anàlisi', 'analysis.load': 'Carregar', 'analysis.start': 'Inici', 'analysis.prev': 'Enrere', 'analysis.next': 'Endavant', 'analysis.end': 'Final',
    'analysis.move': 'Jugada', 'analysis.score': 'Valor', 'analysis.line': 'Millor línia', 'analysis.depth': 'Cerca del motor, cada jugada a {d} mitges jugades; valors en llavors per al costat que juga (amb repeticions); la pèrdua és la diferència de cada jugada amb la millor. L’entrenador i la revisió fan servir aquesta mateixa anàlisi.', 'analysis.loss': 'Pèrdua', 'analysis.database': 'Base de dades', 'analysis.dbAwari': 'Base de dades: la diferència final en llavors capturades de les que hi ha al tauler, per al costat que juga; ≥ indica un mínim.', 'analysis.dbAbapa': 'Base de dades: quantes de les {n} llavors del tauler acaba guanyant el costat que juga, amb joc perfecte; ≥ indica un mínim.', 'analysis.thinking': 'El motor està pensant…',
    'analysis.clickHint': 'Prem una casella per provar una jugada; el motor valora cada jugada legal.', 'analysis.over': 'Partida acabada: {score} ({reason})', 'position': 'Posició',
    'err.not-your-turn': 'No és el teu torn.', 'err.waiting-for-opponent': 'El teu amic encara no s’ha unit: la partida comença quan obri l’enllaç.', 'err.stale': 'La partida ha avançat; torna-ho a provar.', 'err.game-over': 'La partida s’ha acabat.',
    'err.not-your-house': 'Aquesta casella és del teu rival.', 'err.empty-house': 'Aquesta casella és buida.',
    'err.must-feed': 'El teu rival no té llavors: n’hi has de donar.', 'err.starves-opponent': 'Aquesta jugada deixaria el teu rival sense llavors.',
    'err.not-a-player': 'Estàs mirant: només juguen els jugadors.', 'err.unknown-game': 'Aquesta partida no existeix.', 'err.nothing-to-undo': 'No hi ha res a desfer.',
    'labelled': '{label}: {value}', 'board.label': 'Tauler d’aualé', 'store.label': 'Graner de {side}: {n} llavors',
    'house.label': 'Casella {letter} de {side}, {n} llavors', 'house.label1': 'Casella {letter} de {side}, 1 llavor', 'house.atRisk': 'es pot capturar ara',
    'title.home': 'Juga a l’aualé en línia', 'title.game': 'Partida', 'title.computerGame': 'Partida contra l’ordinador, nivell {n}', 'title.friendGame': 'Partida entre amics',
    'home.title': 'Juga a l’aualé', 'home.playNow': 'Jugar ara', 'home.inviteNow': 'Convidar un amic', 'home.playNowHint': 'Jugar ara: ets Sud contra l’ordinador al nivell 3. Convidar: reps un enllaç per a un amic.', 'home.more': 'Altres maneres de jugar',
    'theirTurnShort': 'li toca al rival', 'waitingFriend': 'Esperant que el teu amic obri l’enllaç…',
    'myGames.title': 'Les meves partides', 'myGames.against': 'contra {who}', 'myGames.move1': '1 jugada', 'myGames.moves': '{n} jugades', 'myGames.forget': 'Treu de Les meves partides',
    'share.qr': 'Codi QR de l’enllaç de la partida', 'share.qrHint': 'O deixa que el teu amic escanegi aquest codi amb la càmera del mòbil.', 'share.text': 'Juga a l’aualé amb mi:', 'share.send': 'Enviar…',
    'share.localOnly': 'Aquesta adreça només funciona en aquest ordinador: el teu amic no la podrà obrir. Engega el servidor amb --public-url i una adreça accessible (mira el README).',
    'backToGame': 'Tornar a la partida', 'rematch': 'Revenja (costats canviats)', 'newGame': 'Partida nova', 'sending': 'Sembrant…',
    'why.browsing': 'Estàs mirant una posició anterior: torna a la partida per jugar.', 'why.waiting': 'El teu amic encara no ha obert l’enllaç: la partida comença quan ho faci.',
    'youPlay': 'Jugues {move}…', 'sidePlays': '{side} juga {move}…', 'lookingBack': 'Posició després de {move}',
    'analysis.variation': 'Variant', 'analysis.backToRecord': 'Tornar a la partida',
    'notFound.title': 'No s’ha trobat la pàgina', 'notFound.text': 'No hi ha cap pàgina ni partida en aquesta adreça. Potser l’enllaç està mal copiat, o la partida ja no existeix.', 'notFound.home': 'Jugar una partida',
    'theme': 'Colors', 'theme.system': 'com el sistema', 'theme.light': 'clars', 'theme.dark': 'foscos', 'sound': 'Sons',
    'offline': 'Estàs sense connexió: l’aplicació s’obre, però les partides necessiten la connexió.', 'install': 'Instal·la l’aplicació', 'push.ask': 'Avisa’m quan em toqui', 'push.on': 'Notificacions activades: t’avisem quan et toqui.', 'push.off': 'Desactiva', 'push.offDone': 'Notificacions desactivades', 'push.unsupported': 'Aquest navegador no et pot avisar de les jugades amb la pàgina tancada.', 'push.denied': 'Les notificacions estan bloquejades per a aquest lloc: permet-les a la configuració del navegador perquè t’avisem de les jugades.',
    'err.network': 'No es pot contactar amb el servidor: les partides necessiten la connexió. Comprova-la i torna-ho a provar.', 'err.bad-position': 'Això no és una posició: una posició són les 12 caselles, els dos graners i el costat que juga, com 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
    'err.bad-record': 'Això no és ni una partida, ni una llista de jugades, ni una posició.', 'err.illegal-in-record': 'La jugada {n} de la partida no és legal aquí: la partida es mostra fins a la jugada anterior.',
    'err.busy': 'El motor està ocupat; torna-ho a provar d’aquí a un moment.', 'err.rate-limited': 'Massa peticions alhora; espera un moment.', 'err.storage': 'El servidor no ho ha pogut desar; torna-ho a provar.',
    'err.undo-not-allowed': 'Només es poden desfer jugades contra l’ordinador.', 'err.bad-move': 'Això no és una jugada.', 'err.illegal-move': 'Aquesta jugada no és legal aquí.', 'err.too-many-connections': 'El servidor és ple; torna-ho a provar més tard.',
    'resign': 'Abandonar', 'resign.confirm': 'Segur que abandones?', 'offer.draw': 'Oferir taules', 'offer.takeback': 'Demanar desfer',
    'offer.sent.draw': 'Has ofert taules: esperant la resposta.', 'offer.sent.takeback': 'Has demanat desfer la teva última jugada: esperant la resposta.',
    'offer.received.draw': 'El teu rival ofereix taules.', 'offer.received.takeback': 'El teu rival demana desfer la seva última jugada.',
    'offer.accept': 'Acceptar', 'offer.decline': 'Rebutjar', 'offer.withdraw': 'Retirar', 'offer.rematchReady': 'El teu amic ha començat una revenja, amb els costats canviats.', 'offer.openRematch': 'Jugar la revenja',
    'reason.resign': 'per abandó', 'reason.agreement': 'de comú acord', 'clock.increment': '{n} min + {s} s per jugada',
    'err.no-offer': 'No hi ha cap proposta per respondre.', 'err.friends-only': 'Això és per a partides entre amics.', 'err.not-over': 'La partida encara no s’ha acabat.', 'err.offer-pending': 'Ja hi ha una proposta esperant resposta.',
    'err.too-many-games': 'Massa partides noves des d’aquesta adreça: espera una estona abans de començar-ne una altra.', 'err.not-found': 'Aquesta pàgina no existeix.',
    'err.shutting-down': 'El servidor s’està reiniciant; torna-ho a provar d’aquí a un moment.',
    'err.bad-message': 'La pàgina ha enviat una cosa que el servidor no entén; torna a carregar la pàgina.', 'err.too-large': 'Aquest missatge és massa llarg per al servidor.', 'err.bad-request': 'El servidor no ha pogut llegir aquesta petició; torna a carregar la pàgina i prova-ho de nou.',
    'err.bad-rules': 'Aquestes regles no s’ofereixen: tria abapa o awari.', 'err.bad-level': 'Aquest nivell no s’ofereix: tria de l’1 al 10.', 'err.bad-side': 'Tria Sud o Nord.', 'err.bad-mode': 'Tria jugar contra l’ordinador o contra un amic.',
    'err.internal': 'Alguna cosa ha fallat al servidor; torna-ho a provar.', 'err.bad-language': 'Aquesta llengua no s’ofereix: tria Català, Español, English o Français.', 'err.too-many-moves': 'Aquesta partida és més llarga que qualsevol partida real; no es pot analitzar.', 'err.bad-player': 'Tria Sud o Nord, o els dos jugadors.', 'err.damaged': 'Aquesta partida no s’ha pogut tornar a llegir del magatzem del servidor.',
    'err.foreign-origin': 'El servidor ha rebutjat una petició d’un altre lloc.', 'err.unknown-host': 'El servidor no respon al nom d’aquesta adreça: obre’l a la seva pròpia adreça.', 'err.not-json': 'La pàgina ha enviat una cosa que el servidor no entén; torna a carregar la pàgina.',
    'err.slow-request': 'La petició ha trigat massa a arribar; comprova la connexió i torna-ho a provar.', 'err.too-many-analyses': 'Massa anàlisis alhora des d’aquesta adreça; espera les respostes.',
    'err.too-many-sockets': 'Massa pàgines obertes des d’aquesta adreça; tanca’n algunes i torna a carregar aquesta.',
  },
};

// Names, invitations, records and quick messages between players.
Object.assign(STRINGS.en, {
  'player': 'Player', 
  'clock.day1': '1 day a move', 'clock.days': '{n} days a move', 'clock.dh': '{d} d {h} h', 'clock.hm': '{h} h {m} min', 'myGames.turn1': 'your move in 1 game', 'myGames.turns': 'your move in {n} games',
  'captured': '{n} seeds captured', 
  'language': 'Language', 'connectionLost': 'Connection lost: reconnecting… (nothing can be played until it is back)',
  'flip': 'Flip board', 'reason.aborted': 'aborted before the first move', 'abort': 'Abort', 'aborted': 'Game aborted: no result.', 'watchRematch': 'The players started a rematch.', 'openWatchRematch': 'Watch the rematch',
  'levelDesc.1': 'beginner', 'levelDesc.3': 'casual', 'levelDesc.5': 'club player', 'levelDesc.7': 'strong', 'levelDesc.9': 'expert',
  'err.not-host': 'Only the player who sent the invitation can send a new one.', 
  'say.label': 'Quick messages', 'say.good-luck': 'Good luck!', 'say.your-move': 'Your move!', 'say.well-played': 'Well played', 'say.thank-you': 'Thank you', 'say.good-game': 'Good game',
  'say.from': '{name} says: {text}', 'say.sent': 'Sent: {text}',
  'name.label': 'Your name', 'name.hint': 'Shown to the other player and kept in game records. This browser remembers it.',
  'name.placeholder': 'e.g. Grandma Rosa', 'vs': '{south} vs {north}', 'youNamed': 'You ({name})',
  'invited.title': '{name} invites you to play oware', 'invited.anon': 'You are invited to play oware', 'invited.join': 'Play',
  'seat.taken': 'Both seats are taken ({south} and {north}): you are watching.', 'seat.takenHelp': 'If you were invited, ask for a new link: the player who sent it can free the seat before the first move.',
  'seat.needLink': 'This address only lets you watch. To play, open the invitation link {name} sent you.', 'seat.freed': 'Your seat was freed by the other player. Ask them for a new link to play.',
  'share.newLink': 'New link', 'share.newLinkDone': 'New link made: the old one no longer lets anyone in.',
  'seat.notYourFriend': 'Not the person you invited?', 'seat.free': 'Free the seat', 'seat.freeDone': 'The seat is free again: send your friend the new link.',
  'myGames.downloadAll': 'Download all my games (OGN)',
  'err.bad-name': 'A name is at most 40 characters.', 'err.started': 'The game has started: that was only possible before the first move.', 'err.no-free-seat': 'There is no seat to invite anyone to.',
});
Object.assign(STRINGS.fr, {
  'player': 'Joueur', 
  'clock.day1': '1 jour par coup', 'clock.days': '{n} jours par coup', 'clock.dh': '{d} j {h} h', 'clock.hm': '{h} h {m} min', 'myGames.turn1': 'à vous de jouer dans 1 partie', 'myGames.turns': 'à vous de jouer dans {n} parties',
  'captured': '{n} graines prises', 
  'language': 'Langue', 'connectionLost': 'Connexion perdue : reconnexion… (rien ne peut être joué d’ici là)',
  'flip': 'Retourner le plateau', 'reason.aborted': 'annulée avant le premier coup', 'abort': 'Annuler la partie', 'aborted': 'Partie annulée : pas de résultat.', 'watchRematch': 'Les joueurs ont commencé une revanche.', 'openWatchRematch': 'Regarder la revanche',
  'levelDesc.1': 'débutant', 'levelDesc.3': 'loisir', 'levelDesc.5': 'joueur de club', 'levelDesc.7': 'fort', 'levelDesc.9': 'expert',
  'err.not-host': 'Seule la personne qui a envoyé l’invitation peut en envoyer une nouvelle.', 
  'say.label': 'Messages rapides', 'say.good-luck': 'Bonne chance !', 'say.your-move': 'À vous de jouer !', 'say.well-played': 'Bien joué', 'say.thank-you': 'Merci', 'say.good-game': 'Belle partie',
  'say.from': '{name} dit : {text}', 'say.sent': 'Envoyé : {text}',
  'name.label': 'Votre nom', 'name.hint': 'Montré à l’autre joueur et gardé dans les relevés de partie. Ce navigateur s’en souvient.',
  'name.placeholder': 'p. ex. Mamie Rose', 'vs': '{south} contre {north}', 'youNamed': 'Vous ({name})',
  'invited.title': '{name} vous invite à jouer à l’awalé', 'invited.anon': 'Vous êtes invité à jouer à l’awalé', 'invited.join': 'Jouer',
  'seat.taken': 'Les deux places sont prises ({south} et {north}) : vous regardez la partie.', 'seat.takenHelp': 'Si vous avez été invité, demandez un nouveau lien : la personne qui l’a envoyé peut libérer la place avant le premier coup.',
  'seat.needLink': 'Cette adresse permet seulement de regarder. Pour jouer, ouvrez le lien d’invitation que {name} vous a envoyé.', 'seat.freed': 'L’autre joueur a libéré votre place. Demandez-lui un nouveau lien pour jouer.',
  'share.newLink': 'Nouveau lien', 'share.newLinkDone': 'Nouveau lien créé : l’ancien ne laisse plus entrer personne.',
  'seat.notYourFriend': 'Ce n’est pas la personne invitée ?', 'seat.free': 'Libérer la place', 'seat.freeDone': 'La place est de nouveau libre : envoyez le nouveau lien à votre ami.',
  'myGames.downloadAll': 'Télécharger toutes mes parties (OGN)',
  'err.bad-name': 'Un nom fait au plus 40 caractères.', 'err.started': 'La partie a commencé : ce n’était possible qu’avant le premier coup.', 'err.no-free-seat': 'Il n’y a pas de place à laquelle inviter quelqu’un.',
});
Object.assign(STRINGS.es, {
  'player': 'Jugador', 
  'clock.day1': '1 día por jugada', 'clock.days': '{n} días por jugada', 'clock.dh': '{d} d {h} h', 'clock.hm': '{h} h {m} min', 'myGames.turn1': 'te toca en 1 partida', 'myGames.turns': 'te toca en {n} partidas',
  'captured': '{n} semillas capturadas', 
  'language': 'Idioma', 'connectionLost': 'Conexión perdida: reconectando… (no se puede jugar hasta que vuelva)',
  'flip': 'Girar el tablero', 'reason.aborted': 'anulada antes de la primera jugada', 'abort': 'Anular la partida', 'aborted': 'Partida anulada: sin resultado.', 'watchRematch': 'Los jugadores han empezado una revancha.', 'openWatchRematch': 'Ver la revancha',
  'levelDesc.1': 'principiante', 'levelDesc.3': 'aficionado', 'levelDesc.5': 'jugador de club', 'levelDesc.7': 'fuerte', 'levelDesc.9': 'experto',
  'err.not-host': 'Solo quien envió la invitación puede enviar una nueva.', 
  'say.label': 'Mensajes rápidos', 'say.good-luck': '¡Buena suerte!', 'say.your-move': '¡Te toca!', 'say.well-played': 'Bien jugado', 'say.thank-you': 'Gracias', 'say.good-game': 'Buena partida',
  'say.from': '{name} dice: {text}', 'say.sent': 'Enviado: {text}',
  'name.label': 'Tu nombre', 'name.hint': 'Lo ve el otro jugador y queda en las anotaciones de las partidas. Este navegador lo recuerda.',
  'name.placeholder': 'p. ej. Abuela Rosa', 'vs': '{south} contra {north}', 'youNamed': 'Tú ({name})',
  'invited.title': '{name} te invita a jugar al oware', 'invited.anon': 'Te han invitado a jugar al oware', 'invited.join': 'Jugar',
  'seat.taken': 'Los dos puestos están ocupados ({south} y {north}): estás mirando la partida.', 'seat.takenHelp': 'Si te han invitado, pide un enlace nuevo: quien te lo envió puede liberar el puesto antes de la primera jugada.',
  'seat.needLink': 'Esta dirección solo permite mirar. Para jugar, abre el enlace de invitación que te envió {name}.', 'seat.freed': 'El otro jugador ha liberado tu puesto. Pídele un enlace nuevo para jugar.',
  'share.newLink': 'Enlace nuevo', 'share.newLinkDone': 'Enlace nuevo creado: el anterior ya no deja entrar a nadie.',
  'seat.notYourFriend': '¿No es la persona que invitaste?', 'seat.free': 'Liberar el puesto', 'seat.freeDone': 'El puesto vuelve a estar libre: envía el enlace nuevo a tu amigo.',
  'myGames.downloadAll': 'Descargar todas mis partidas (OGN)',
  'err.bad-name': 'Un nombre tiene como mucho 40 caracteres.', 'err.started': 'La partida ya ha empezado: eso solo se podía antes de la primera jugada.', 'err.no-free-seat': 'No hay ningún puesto al que invitar a nadie.',
});
Object.assign(STRINGS.ca, {
  'player': 'Jugador', 
  'clock.day1': '1 dia per jugada', 'clock.days': '{n} dies per jugada', 'clock.dh': '{d} d {h} h', 'clock.hm': '{h} h {m} min', 'myGames.turn1': 'et toca en 1 partida', 'myGames.turns': 'et toca en {n} partides',
  'captured': '{n} llavors capturades', 
  'language': 'Llengua', 'connectionLost': 'Connexió perduda: reconnectant… (no es pot jugar fins que torni)',
  'flip': 'Gira el tauler', 'reason.aborted': 'anul·lada abans de la primera jugada', 'abort': 'Anul·la la partida', 'aborted': 'Partida anul·lada: sense resultat.', 'watchRematch': 'Els jugadors han començat una revenja.', 'openWatchRematch': 'Mira la revenja',
  'levelDesc.1': 'principiant', 'levelDesc.3': 'aficionat', 'levelDesc.5': 'jugador de club', 'levelDesc.7': 'fort', 'levelDesc.9': 'expert',
  'err.not-host': 'Només qui ha enviat la invitació en pot enviar una de nova.', 
  'say.label': 'Missatges ràpids', 'say.good-luck': 'Bona sort!', 'say.your-move': 'Et toca!', 'say.well-played': 'Ben jugat', 'say.thank-you': 'Gràcies', 'say.good-game': 'Bona partida',
  'say.from': '{name} diu: {text}', 'say.sent': 'Enviat: {text}',
  'name.label': 'El teu nom', 'name.hint': 'El veu l’altre jugador i queda a les anotacions de les partides. Aquest navegador el recorda.',
  'name.placeholder': 'p. ex. Àvia Rosa', 'vs': '{south} contra {north}', 'youNamed': 'Tu ({name})',
  'invited.title': '{name} et convida a jugar a l’aualé', 'invited.anon': 'T’han convidat a jugar a l’aualé', 'invited.join': 'Juga',
  'seat.taken': 'Els dos llocs estan ocupats ({south} i {north}): estàs mirant la partida.', 'seat.takenHelp': 'Si t’han convidat, demana un enllaç nou: qui te l’ha enviat pot alliberar el lloc abans de la primera jugada.',
  'seat.needLink': 'Aquesta adreça només permet mirar. Per jugar, obre l’enllaç d’invitació que t’ha enviat {name}.', 'seat.freed': 'L’altre jugador ha alliberat el teu lloc. Demana-li un enllaç nou per jugar.',
  'share.newLink': 'Enllaç nou', 'share.newLinkDone': 'Enllaç nou creat: l’anterior ja no deixa entrar ningú.',
  'seat.notYourFriend': 'No és la persona que has convidat?', 'seat.free': 'Allibera el lloc', 'seat.freeDone': 'El lloc torna a estar lliure: envia l’enllaç nou al teu amic.',
  'myGames.downloadAll': 'Descarrega totes les meves partides (OGN)',
  'err.bad-name': 'Un nom té com a màxim 40 caràcters.', 'err.started': 'La partida ja ha començat: això només es podia fer abans de la primera jugada.', 'err.no-free-seat': 'No hi ha cap lloc on convidar ningú.',
});

// Starting from a set-up position, and clocks of any length.
Object.assign(STRINGS.en, {
  'clock.custom': 'Custom…', 'clock.customMinutes': 'Minutes each', 'clock.customIncrement': 'Seconds added a move',
  'start': 'Start from', 'start.usual': 'the usual start', 'start.setup': 'a position',
  'setup.title': 'Set up the board', 'setup.hint': 'Type the seeds in each house or tap − and +, or paste a position string.',
  'setup.house': '{side}’s house {letter}', 'setup.store': '{side}’s store', 'setup.more': 'One more seed: {what}', 'setup.less': 'One seed fewer: {what}',
  'setup.toMove': 'To move', 'setup.string': 'Position string', 'setup.count': 'Seeds: {n} of 48',
  'setup.badTotal': 'The houses and stores must hold 48 seeds in all, not {n}.', 'setup.badString': 'That position string cannot be read: it is 12 house counts, the two stores and S or N, such as 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
  'err.position-over': 'The game is already over in that position under these rules: set up one where the side to move can play.',
  'err.bad-clock': 'A clock gives each side from 1 to 180 minutes, with at most 30 seconds added a move.',
});
Object.assign(STRINGS.fr, {
  'clock.custom': 'Personnalisée…', 'clock.customMinutes': 'Minutes chacun', 'clock.customIncrement': 'Secondes ajoutées par coup',
  'start': 'Départ', 'start.usual': 'la position initiale', 'start.setup': 'une position choisie',
  'setup.title': 'Disposer le plateau', 'setup.hint': 'Tapez le nombre de graines de chaque case ou touchez − et +, ou collez une position.',
  'setup.house': 'Case {letter} de {side}', 'setup.store': 'Grenier de {side}', 'setup.more': 'Une graine de plus : {what}', 'setup.less': 'Une graine de moins : {what}',
  'setup.toMove': 'Au trait', 'setup.string': 'Position (texte)', 'setup.count': 'Graines : {n} sur 48',
  'setup.badTotal': 'Les cases et les greniers doivent contenir 48 graines en tout, pas {n}.', 'setup.badString': 'Cette position est illisible : il faut les 12 cases, les deux greniers et S ou N, comme 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
  'err.position-over': 'Dans cette position, la partie est déjà finie avec ces règles : disposez-en une où le camp au trait peut jouer.',
  'err.bad-clock': 'Une pendule donne à chaque camp de 1 à 180 minutes, et au plus 30 secondes de plus par coup.',
});
Object.assign(STRINGS.es, {
  'clock.custom': 'Personalizado…', 'clock.customMinutes': 'Minutos cada uno', 'clock.customIncrement': 'Segundos añadidos por jugada',
  'start': 'Empezar desde', 'start.usual': 'la posición inicial', 'start.setup': 'una posición',
  'setup.title': 'Prepara el tablero', 'setup.hint': 'Escribe las semillas de cada casilla o toca − y +, o pega una posición.',
  'setup.house': 'Casilla {letter} de {side}', 'setup.store': 'Granero de {side}', 'setup.more': 'Una semilla más: {what}', 'setup.less': 'Una semilla menos: {what}',
  'setup.toMove': 'Juega', 'setup.string': 'Posición (texto)', 'setup.count': 'Semillas: {n} de 48',
  'setup.badTotal': 'Las casillas y los graneros deben sumar 48 semillas, no {n}.', 'setup.badString': 'No se puede leer esa posición: son las 12 casillas, los dos graneros y S o N, como 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
  'err.position-over': 'En esa posición la partida ya ha terminado con estas reglas: prepara una en la que pueda jugar el lado al que le toca.',
  'err.bad-clock': 'Un reloj da a cada lado de 1 a 180 minutos, con 30 segundos como mucho añadidos por jugada.',
});
Object.assign(STRINGS.ca, {
  'clock.custom': 'Personalitzat…', 'clock.customMinutes': 'Minuts cadascú', 'clock.customIncrement': 'Segons afegits per jugada',
  'start': 'Començar des de', 'start.usual': 'la posició inicial', 'start.setup': 'una posició',
  'setup.title': 'Prepara el tauler', 'setup.hint': 'Escriu les llavors de cada casella o toca − i +, o enganxa una posició.',
  'setup.house': 'Casella {letter} de {side}', 'setup.store': 'Graner de {side}', 'setup.more': 'Una llavor més: {what}', 'setup.less': 'Una llavor menys: {what}',
  'setup.toMove': 'Juga', 'setup.string': 'Posició (text)', 'setup.count': 'Llavors: {n} de 48',
  'setup.badTotal': 'Les caselles i els graners han de sumar 48 llavors, no {n}.', 'setup.badString': 'No es pot llegir aquesta posició: són les 12 caselles, els dos graners i S o N, com 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.',
  'err.position-over': 'En aquesta posició la partida ja s’ha acabat amb aquestes regles: prepara’n una on pugui jugar el costat a qui toca.',
  'err.bad-clock': 'Un rellotge dona a cada costat d’1 a 180 minuts, amb 30 segons com a màxim afegits per jugada.',
});

// The rules page: sections of text, each with an optional small diagram (a position string, the
// house to mark, and a caption).
export const RULES = {
  en: {
    title: 'How to play oware',
    sections: [
      { h: 'The board', p: ['Two players, South and North, face each other across two rows of six houses. Each player owns the row nearest to them (South: A–F, North: a–f) and a store at their right. At the start every house holds 4 seeds: 48 in all. South moves first.'], d: ['4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', -1, 'The start: 4 seeds in every house.'] },
      { h: 'Sowing', p: ['On your turn take all the seeds from one of your non-empty houses and sow them one by one, counter-clockwise, into the following houses (across to your opponent’s row and back). Seeds never go into a store. With 12 or more seeds you go round the board and skip the house you emptied.'], d: ['4-4-4-4-4-0-5-5-5-5-4-4-0-0-N', 5, 'South played F: its 4 seeds went into a, b, c and d.'] },
      { h: 'Capturing', p: ['If your last seed lands in your opponent’s row and makes that house hold 2 or 3 seeds, you capture them into your store. Then look at the house before it: if it is also your opponent’s and holds 2 or 3, capture it too, and so on.', 'Under abapa, a move that would capture every seed of your opponent captures nothing (a “grand slam”).'] },
      { h: 'Feeding', p: ['You may not leave your opponent without seeds: if their row is empty, you must play a move that gives them some.'] },
      { h: 'The end', p: ['The game ends when a player has more than 24 seeds in their store (they win), when both have 24 (a draw), when the player to move cannot move, or when a position comes back. In the last two cases each player adds the seeds on their side to their store. More seeds wins.'] },
    ],
  },
  fr: {
    title: 'Comment jouer à l’awalé',
    sections: [
      { h: 'Le plateau', p: ['Deux joueurs, Sud et Nord, se font face de part et d’autre de deux rangées de six cases. Chacun possède la rangée la plus proche (Sud : A–F, Nord : a–f) et un grenier à sa droite. Au début chaque case contient 4 graines : 48 en tout. Sud commence.'], d: ['4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', -1, 'Le départ : 4 graines par case.'] },
      { h: 'Semer', p: ['À votre tour, prenez toutes les graines d’une de vos cases non vides et semez-les une par une, dans le sens inverse des aiguilles d’une montre, dans les cases suivantes (chez l’adversaire puis chez vous). On ne sème jamais dans un grenier. Avec 12 graines ou plus on fait le tour et on saute la case vidée.'], d: ['4-4-4-4-4-0-5-5-5-5-4-4-0-0-N', 5, 'Sud a joué F : ses 4 graines sont allées en a, b, c et d.'] },
      { h: 'Prendre', p: ['Si votre dernière graine tombe chez l’adversaire et que la case contient alors 2 ou 3 graines, vous les prenez. Regardez ensuite la case précédente : si elle est aussi chez l’adversaire et contient 2 ou 3 graines, prenez-les aussi, et ainsi de suite.', 'En abapa, un coup qui prendrait toutes les graines de l’adversaire ne prend rien (le « grand chelem »).'] },
      { h: 'Nourrir', p: ['Vous ne pouvez pas laisser votre adversaire sans graines : si sa rangée est vide, vous devez jouer un coup qui lui en donne.'] },
      { h: 'La fin', p: ['La partie finit quand un joueur a plus de 24 graines dans son grenier (il gagne), quand chacun en a 24 (nulle), quand le joueur au trait ne peut pas jouer, ou quand une position se répète. Dans ces deux derniers cas chacun ajoute les graines de son côté à son grenier. Le plus de graines gagne.'] },
    ],
  },
  es: {
    title: 'Cómo se juega al oware',
    sections: [
      { h: 'El tablero', p: ['Dos jugadores, Sur y Norte, se sientan frente a dos filas de seis casillas. Cada uno tiene la fila más cercana (Sur: A–F, Norte: a–f) y un granero a su derecha. Al empezar cada casilla tiene 4 semillas: 48 en total. Sale Sur.'], d: ['4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', -1, 'El inicio: 4 semillas por casilla.'] },
      { h: 'Sembrar', p: ['En tu turno coge todas las semillas de una de tus casillas no vacías y siémbralas de una en una, en sentido contrario a las agujas del reloj, en las casillas siguientes (las del rival y luego las tuyas). Nunca se siembra en un granero. Con 12 semillas o más se da la vuelta y se salta la casilla vaciada.'], d: ['4-4-4-4-4-0-5-5-5-5-4-4-0-0-N', 5, 'Sur ha jugado F: sus 4 semillas han ido a a, b, c y d.'] },
      { h: 'Capturar', p: ['Si tu última semilla cae en la fila del rival y esa casilla queda con 2 o 3 semillas, las capturas. Mira luego la casilla anterior: si también es del rival y tiene 2 o 3, captúrala también, y así sucesivamente.', 'En abapa, una jugada que capturaría todas las semillas del rival no captura nada (el «gran slam»).'] },
      { h: 'Alimentar', p: ['No puedes dejar a tu rival sin semillas: si su fila está vacía, debes hacer una jugada que le dé alguna.'] },
      { h: 'El final', p: ['La partida acaba cuando un jugador tiene más de 24 semillas en su granero (gana), cuando los dos tienen 24 (tablas), cuando el que juega no puede mover, o cuando se repite una posición. En los dos últimos casos cada uno suma las semillas de su lado. Gana quien tiene más.'] },
    ],
  },
  ca: {
    title: 'Com es juga a l’aualé',
    sections: [
      { h: 'El tauler', p: ['Dos jugadors, Sud i Nord, s’asseuen davant de dues files de sis caselles. Cadascú té la fila més propera (Sud: A–F, Nord: a–f) i un graner a la seva dreta. Al començament cada casella té 4 llavors: 48 en total. Surt Sud.'], d: ['4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', -1, 'L’inici: 4 llavors a cada casella.'] },
      { h: 'Sembrar', p: ['Al teu torn agafa totes les llavors d’una de les teves caselles no buides i sembra-les d’una en una, en sentit contrari a les agulles del rellotge, a les caselles següents (les del rival i després les teves). Mai no se sembra al graner. Amb 12 llavors o més es fa la volta i se salta la casella buidada.'], d: ['4-4-4-4-4-0-5-5-5-5-4-4-0-0-N', 5, 'Sud ha jugat F: les seves 4 llavors han anat a a, b, c i d.'] },
      { h: 'Capturar', p: ['Si la teva última llavor cau a la fila del rival i aquella casella queda amb 2 o 3 llavors, les captures. Mira després la casella anterior: si també és del rival i en té 2 o 3, captura-la també, i així successivament.', 'En abapa, una jugada que capturaria totes les llavors del rival no captura res (el «gran slam»).'] },
      { h: 'Alimentar', p: ['No pots deixar el rival sense llavors: si la seva fila és buida, has de fer una jugada que li’n doni.'] },
      { h: 'El final', p: ['La partida s’acaba quan un jugador té més de 24 llavors al graner (guanya), quan tots dos en tenen 24 (taules), quan qui juga no pot moure, o quan es repeteix una posició. En els dos últims casos cadascú suma les llavors del seu costat. Guanya qui en té més.'] },
    ],
  },
};

// The capture example, the same board in every language, shown after the move it tells of (the
// ring marks the move just played, as on a game's board): from 0-0-0-4-0-0-1-2-4-0-3-2-16-16-S,
// South's D (4 seeds) sowed E, F, a, b; b then held 3 and a held 2, so South captured 5.
const CAPTURE_CAPTIONS = {
  en: 'South has just played D: its last seed made 3 in b, and a had 2, so South captured those 5 seeds (a and b are empty now).',
  fr: 'Sud vient de jouer D : sa dernière graine a fait 3 en b, et a en avait 2, donc Sud a pris ces 5 graines (a et b sont vides maintenant).',
  es: 'Sur acaba de jugar D: su última semilla ha dejado 3 en b, y a tenía 2, así que Sur ha capturado esas 5 semillas (a y b están vacías ahora).',
  ca: 'Sud acaba de jugar D: la seva última llavor ha deixat 3 a b, i a en tenia 2, així que Sud ha capturat aquestes 5 llavors (a i b són buides ara).',
};
for (const lang of Object.keys(RULES)) {
  RULES[lang].sections[2].d = ['0-0-0-0-1-1-0-0-4-0-3-2-21-16-N', 3, CAPTURE_CAPTIONS[lang]];
}

function pickLanguage() {
  const lang = saved.get('oware.lang');
  if (lang && STRINGS[lang]) return lang;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (STRINGS[base]) return base;
  }
  return 'en';
}

let LANG = pickLanguage();

function template(key) {
  return typeset((STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key);
}

// The text of `key` in the page's language, its {placeholders} filled from `vars` in one pass: a
// value is never read again as a template (a player named "{north}" shows as just that), nor
// typeset as the language's own words are.
export function t(key, vars) {
  return template(key).replace(/\{(\w+)\}/g, (m, k) => (vars && Object.hasOwn(vars, k) ? String(vars[k]) : m));
}

// The same text as a list of strings and nodes, for `fill` or `h`: a value that is a node (a
// player's name, see `nameNode` below), or a list of them, goes in as it is, never through a
// string.
export function tNodes(key, vars) {
  return template(key).split(/(\{\w+\})/).flatMap((part) => {
    const k = /^\{(\w+)\}$/.exec(part)?.[1];
    if (!k || !vars || !Object.hasOwn(vars, k)) return part ? [part] : [];
    const v = vars[k];
    return v instanceof Node || Array.isArray(v) ? v : [String(v)];
  });
}

// Whether the app has a text for `key` (the server's error codes it does not know are shown in
// the server's words).
export function has(key) {
  return key in STRINGS.en;
}

// French puts a no-break space before : ; ! ? and inside « »: `Sud : Ami` never breaks before
// its colon. The strings are written with ordinary spaces; this makes them typographically right.
export function typeset(s) {
  if (LANG !== 'fr') return s;
  return s.replace(/ ([:;!?»])/g, '\u00a0$1').replace(/« /g, '«\u00a0');
}

export function setLanguage(lang) {
  if (!STRINGS[lang]) return;
  LANG = lang;
  saved.set('oware.lang', lang);
}

export function getLanguage() { return LANG; }

export function sideName(side) { return t(side === 'S' ? 'south' : 'north'); }

// A player's name as the page shows it: a text node in an isolating element, so that a name
// written right to left (Arabic, Hebrew) keeps to itself and leaves the words around it in their
// order. Names go into texts only this way (see `tNodes`), never into a template's string.
export function nameNode(name) { return h('bdi', { class: 'player-name' }, name); }
