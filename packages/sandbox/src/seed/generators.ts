/**
 * @module The named demo-value generators of `DemoGenerator`: fictitious people (some with
 * non-ASCII names), organisations, `example.test` emails, `+000` phone numbers, plates, VINs,
 * serials, unique codes, titles, sentences, places, coordinates and analytic distributions.
 */
import type { DemoGenerator } from '../orm/model-def';
import type { Random } from './prng';

const FIRST_NAMES = [
  'Aïssatou',
  'Mamadou',
  'Fatou',
  'Jérôme',
  'Hélène',
  'Ousmane',
  'Awa',
  'Chloé',
  'Moussa',
  'Zoë',
  'Ibrahima',
  'Mariam',
  'Léa',
  'Cheikh',
  'Nadia',
  'Björn',
  'Adama',
  'Élodie',
  'Souleymane',
  'Khady',
  'Raphaël',
  'Aminata',
  'Thomas',
  'Yasmine',
  'Bintou',
  'François',
  'Oumar',
  'Ngozi',
  'Łucja',
  'Amadou',
];
const LAST_NAMES = [
  'Diallo',
  'Ndiaye',
  'Sow',
  'Lefèvre',
  'Traoré',
  'Mbaye',
  'Koné',
  'Dupont',
  'Faye',
  'Müller',
  'Diop',
  'Camara',
  'Gueye',
  'Leroy',
  'Sarr',
  'Ba',
  'Kouassi',
  'Nowak',
  'Cissé',
  'Fall',
  'Bénard',
  'Touré',
  'Ouédraogo',
  'Martin',
];
const COMPANY_WORDS = ['Sahel', 'Baobab', 'Atlantique', 'Teranga', 'Horizon', 'Kaolack', 'Delta', 'Falémé', 'Niokolo', 'Casamance'];
const COMPANY_KINDS = ['Logistique SARL', 'Services SA', 'Transports', 'Fournitures', 'Conseil', 'Équipements', 'Solaire', 'Bâtiment'];
const CITIES = [
  'Dakar',
  'Thiès',
  'Saint-Louis',
  'Ziguinchor',
  'Kaolack',
  'Tambacounda',
  'Kédougou',
  'Rufisque',
  'Mbour',
  'Touba',
  'Bamako',
  'Ségou',
  'Abidjan',
  'Bouaké',
  'Cotonou',
  'Porto-Novo',
  'Lyon',
  'Liège',
  'Montréal',
  'Rabat',
  'Fès',
  'Niamey',
  'Ouagadougou',
  'Bobo-Dioulasso',
];
const STREETS = [
  'rue des Acacias',
  'avenue Cheikh Anta Diop',
  'boulevard de la République',
  'route de Rufisque',
  'rue Félix Faure',
  'allée des Baobabs',
  'chemin du Lac',
  'place de l’Indépendance',
];
const TITLE_NOUNS = ['Rapport', 'Révision', 'Inventaire', 'Mission', 'Contrôle', 'Formation', 'Audit', 'Livraison', 'Maintenance', 'Réunion', 'Campagne', 'Étude'];
const TITLE_TOPICS = [
  'logistique',
  'du parc',
  'trimestriel',
  'des stocks',
  'de sécurité',
  'terrain',
  'annuel',
  'des équipements',
  'régional',
  'énergie',
  'informatique',
  'qualité',
];
const SENTENCE_PARTS = [
  'Le véhicule a été contrôlé avant le départ.',
  'Prévoir une vérification complète la semaine prochaine.',
  'Les pièces commandées sont arrivées au dépôt.',
  'Aucune anomalie constatée lors de la visite.',
  'Le responsable a validé la demande.',
  'Merci de confirmer la disponibilité de l’équipe.',
  'Document transmis au service financier.',
  'Intervention reportée à cause des pluies.',
];
const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTVWXYZ';
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** What a generator may look at besides the random stream. */
export interface GeneratorContext {
  readonly random: Random;
  /** 0-based row number within the model (demo rows, then scaled ones). */
  readonly index: number;
  readonly model: string;
  /** Another value of the row (email from the name). */
  readonly rowValue: (field: string) => unknown;
  /** Ids of `account.analytic.account` rows, for distributions. */
  readonly analyticAccountIds: () => readonly number[];
  /** Makes a value unique within the model and field (suffixing it if needed). */
  readonly unique: (value: string) => string;
}

export function generate(name: DemoGenerator, ctx: GeneratorContext): string | number | null {
  const r = ctx.random;
  switch (name) {
    case 'person':
      return `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
    case 'company':
      return `${r.pick(COMPANY_WORDS)} ${r.pick(COMPANY_KINDS)}`;
    case 'email': {
      const source = ctx.rowValue('name');
      const local = typeof source === 'string' && source ? slug(source) : `contact${ctx.index + 1}`;
      return ctx.unique(`${local}@example.test`);
    }
    case 'phone':
      return `+000 ${r.int(10, 99)} ${r.int(100, 999)} ${String(r.int(0, 9999)).padStart(4, '0')}`;
    case 'plate':
      return `${letters(r, PLATE_LETTERS, 2)}-${String(r.int(0, 9999)).padStart(4, '0')}-${letters(r, PLATE_LETTERS, 2)}`;
    case 'vin':
      return letters(r, VIN_CHARS, 17);
    case 'serial':
      return `SN-${letters(r, VIN_CHARS, 4)}-${String(ctx.index + 1).padStart(6, '0')}`;
    case 'code':
      return code(ctx.index);
    case 'title':
      return `${r.pick(TITLE_NOUNS)} ${r.pick(TITLE_TOPICS)}`;
    case 'sentence':
      return r.pick(SENTENCE_PARTS);
    case 'city':
      return r.pick(CITIES);
    case 'street':
      return `${r.int(1, 180)} ${r.pick(STREETS)}`;
    case 'latitude':
      return round(r.float(4.2, 16.6), 6);
    case 'longitude':
      return round(r.float(-17.5, 2.5), 6);
    case 'distribution':
      return distribution(r, ctx.analyticAccountIds());
  }
}

/** A unique upper-case code per row number: `AAA-001`, `AAB-002`... (three letters, counter). */
function code(index: number): string {
  const n = CODE_LETTERS.length;
  const a = CODE_LETTERS[Math.floor(index / (n * n)) % n]!;
  const b = CODE_LETTERS[Math.floor(index / n) % n]!;
  const c = CODE_LETTERS[index % n]!;
  return `${a}${b}${c}-${String(index + 1).padStart(3, '0')}`;
}

/** `{"<account id>": percent}` over one to three accounts, summing to 100. */
function distribution(r: Random, accounts: readonly number[]): string | null {
  if (!accounts.length) return null;
  const count = Math.min(accounts.length, r.int(1, 3));
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(r.pick(accounts));
  const shares =
    count === 1
      ? [100]
      : count === 2
        ? r.pick([
            [50, 50],
            [60, 40],
            [70, 30],
            [80, 20],
          ])
        : r.pick([
            [50, 30, 20],
            [40, 30, 30],
            [34, 33, 33],
          ]);
  const result: Record<string, number> = {};
  for (const [i, id] of [...chosen].entries()) result[String(id)] = shares[i]!;
  return JSON.stringify(result);
}

function letters(r: Random, alphabet: string, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(r.next() * alphabet.length)];
  return out;
}

/** `Aïssatou Diallo` → `aissatou.diallo`. */
function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ł/g, 'l')
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
