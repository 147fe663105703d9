// The demo's auctions, from finished to upcoming: prisma/seed.ts writes them.
import { AuctionStatus } from '../../app/utils/db.server.ts'
import { DAY, HOUR, MINUTE, SECOND, type Bidder, type SeedAuction } from './data.ts'

function repeat(pattern: Bidder[], times: number): Bidder[] {
  return Array.from({ length: times }, () => pattern).flat()
}

export const AUCTIONS: SeedAuction[] = [
  // Finished within the last day.
  {
    title: 'Samsung Galaxy A55 8/256 ГБ',
    description:
      'Смартфон Samsung Galaxy A55 5G: экран Super AMOLED 6,6", 120 Гц, камера 50 Мп, ' +
      'защита IP67, аккумулятор 5000 мА·ч. Официальная гарантия 1 год.',
    retailPriceSom: 36_900,
    category: 'Смартфоны',
    status: AuctionStatus.finished,
    startIn: -2 * HOUR,
    lastEventIn: -1 * HOUR,
    bids: [...repeat(['aizada', 'bot:0', 'nurlan'], 6), 'aibek', 'nurlan'],
    bidSpacing: 7 * SECOND,
    bots: { 0: 20 },
  },
  {
    title: 'Портативная колонка JBL Flip 6',
    description:
      'Водонепроницаемая колонка JBL Flip 6 (IP67) с мощным басом и до 12 часов работы ' +
      'от аккумулятора. Цвет — чёрный.',
    retailPriceSom: 11_900,
    category: 'Аудио',
    status: AuctionStatus.finished,
    startIn: -5 * HOUR,
    lastEventIn: -3 * HOUR,
    bids: [...repeat(['aibek', 'aizada', 'demo'], 5), 'aibek'],
    bidSpacing: 6 * SECOND,
  },
  {
    title: 'Apple iPad 10.9 Wi-Fi 64 ГБ',
    description:
      'Планшет Apple iPad 10-го поколения: дисплей Liquid Retina 10,9", чип A14 Bionic, ' +
      'USB-C, Touch ID. Цвет — синий.',
    retailPriceSom: 38_900,
    category: 'Планшеты',
    status: AuctionStatus.finished,
    startIn: -8 * HOUR,
    lastEventIn: -6 * HOUR,
    bids: [...repeat(['demo', 'aizada', 'bot:1'], 7), 'demo', 'aizada'],
    bidSpacing: 5 * SECOND,
    bots: { 1: 10 },
  },
  {
    title: 'Робот-пылесос Xiaomi Robot Vacuum S20',
    description:
      'Робот-пылесос с влажной уборкой, лазерной навигацией LDS и управлением из приложения ' +
      'Mi Home. Мощность всасывания 5000 Па.',
    retailPriceSom: 24_500,
    category: 'Бытовая техника',
    status: AuctionStatus.finished,
    startIn: -12 * HOUR,
    lastEventIn: -10 * HOUR,
    bids: repeat(['aibek', 'demo'], 6),
    bidSpacing: 8 * SECOND,
  },
  {
    title: 'Игровая консоль Nintendo Switch OLED',
    description:
      'Nintendo Switch OLED с 7-дюймовым OLED-экраном, 64 ГБ памяти и улучшенным звуком. ' +
      'В комплекте док-станция и два контроллера Joy-Con.',
    retailPriceSom: 32_900,
    category: 'Игры и консоли',
    status: AuctionStatus.finished,
    startIn: -18 * HOUR,
    lastEventIn: -16 * HOUR,
    bids: [...repeat(['aizada', 'aibek', 'bot:2'], 8), 'aibek'],
    bidSpacing: 6 * SECOND,
    bots: { 2: 0 },
  },
  {
    title: 'Фен Dyson Supersonic HD07',
    description:
      'Фен Dyson Supersonic с интеллектуальным контролем температуры и пятью насадками. ' +
      'Аукцион завершился без ставок.',
    retailPriceSom: 49_900,
    category: 'Красота и здоровье',
    status: AuctionStatus.finished,
    startIn: -23 * HOUR,
    lastEventIn: -22 * HOUR,
    bids: [],
  },
  // Live now.
  {
    title: 'Наушники Apple AirPods Pro 2 (USB-C)',
    description:
      'Беспроводные наушники с активным шумоподавлением, адаптивным звуком и зарядным ' +
      'футляром MagSafe с разъёмом USB-C.',
    retailPriceSom: 24_900,
    category: 'Аудио',
    status: AuctionStatus.live,
    startIn: -25 * MINUTE,
    lastEventIn: -2 * SECOND,
    prebids: ['aibek'],
    bids: ['aibek', 'aizada', 'bot:0', 'demo', 'aibek', 'bot:1', 'aizada', 'demo', 'nurlan'],
    bidSpacing: 6 * SECOND,
    bots: { 0: 0, 1: 25 },
  },
  {
    title: 'Смартфон Xiaomi Redmi Note 14 Pro 8/256 ГБ',
    description:
      'Redmi Note 14 Pro: AMOLED-экран 6,67" 120 Гц, камера 200 Мп, быстрая зарядка 45 Вт ' +
      'и аккумулятор 5500 мА·ч.',
    retailPriceSom: 27_900,
    category: 'Смартфоны',
    status: AuctionStatus.live,
    startIn: -50 * MINUTE,
    lastEventIn: -4 * SECOND,
    bids: [...repeat(['demo', 'bot:2', 'aibek', 'bot:3'], 3), 'aizada'],
    bidSpacing: 5 * SECOND,
    bots: { 2: 0, 3: 40 },
  },
  {
    title: 'Умные часы Apple Watch Series 10 46 мм',
    description:
      'Apple Watch Series 10 с самым большим и ярким дисплеем, ЭКГ, датчиком кислорода в ' +
      'крови и отслеживанием сна. Алюминиевый корпус.',
    retailPriceSom: 44_900,
    category: 'Гаджеты',
    status: AuctionStatus.live,
    startIn: -10 * MINUTE,
    lastEventIn: -3 * SECOND,
    bids: ['nurlan', 'bot:4', 'aibek', 'bot:5', 'aizada', 'bot:4'],
    bidSpacing: 7 * SECOND,
    bots: { 4: 30, 5: 0 },
  },
  // Upcoming.
  {
    title: 'Apple iPhone 16 Pro Max 256 ГБ',
    description:
      'Флагманский iPhone 16 Pro Max: титановый корпус, дисплей 6,9", чип A18 Pro, камера ' +
      '48 Мп с 5-кратным оптическим зумом. Цвет — «пустынный титан».',
    retailPriceSom: 179_900,
    category: 'Смартфоны',
    featured: true,
    status: AuctionStatus.upcoming,
    startIn: 1 * DAY + 2 * HOUR,
    prebids: ['demo', 'aibek', 'aizada'],
  },
  {
    title: '50 ставок',
    description:
      'Пакет из 50 ставок: победитель оплачивает финальную цену в течение 48 часов, и ставки ' +
      'сразу зачисляются на его баланс.',
    retailPriceSom: 1_000,
    category: 'Пакеты ставок',
    isBidPackage: true,
    packageBids: 50,
    status: AuctionStatus.upcoming,
    // Starts a few minutes after seeding, so a demo shows an auction going live.
    startIn: 3 * MINUTE,
  },
  {
    title: '100 ставок',
    description:
      'Пакет из 100 ставок: победитель оплачивает финальную цену в течение 48 часов, и ставки ' +
      'сразу зачисляются на его баланс.',
    retailPriceSom: 2_000,
    category: 'Пакеты ставок',
    isBidPackage: true,
    packageBids: 100,
    status: AuctionStatus.upcoming,
    startIn: 5 * HOUR,
    prebids: ['aibek', 'nurlan'],
  },
  {
    title: '250 ставок',
    description:
      'Пакет из 250 ставок: победитель оплачивает финальную цену в течение 48 часов, и ставки ' +
      'сразу зачисляются на его баланс.',
    retailPriceSom: 5_000,
    category: 'Пакеты ставок',
    isBidPackage: true,
    packageBids: 250,
    status: AuctionStatus.upcoming,
    startIn: 1 * DAY + 6 * HOUR,
  },
  {
    title: 'Samsung Galaxy S25 Ultra 12/256 ГБ',
    description:
      'Samsung Galaxy S25 Ultra со встроенным стилусом S Pen, камерой 200 Мп и процессором ' +
      'Snapdragon 8 Elite. Цвет — титановый серый.',
    retailPriceSom: 139_900,
    category: 'Смартфоны',
    status: AuctionStatus.upcoming,
    startIn: 2 * DAY,
  },
  {
    title: 'Ноутбук Apple MacBook Air 13 M3 8/256 ГБ',
    description:
      'Лёгкий и тихий MacBook Air на чипе M3: дисплей Liquid Retina 13,6", до 18 часов ' +
      'работы от аккумулятора, 8 ГБ памяти и SSD 256 ГБ.',
    retailPriceSom: 119_900,
    category: 'Ноутбуки',
    status: AuctionStatus.upcoming,
    startIn: 3 * DAY,
  },
  {
    title: 'Наушники Sony WH-1000XM5',
    description:
      'Полноразмерные беспроводные наушники Sony с лучшим в классе шумоподавлением и до 30 ' +
      'часов работы. Цвет — чёрный.',
    retailPriceSom: 32_900,
    category: 'Аудио',
    status: AuctionStatus.upcoming,
    startIn: 4 * DAY,
  },
  {
    title: 'Игровая консоль Sony PlayStation 5 Slim',
    description:
      'PlayStation 5 Slim с дисководом, SSD 1 ТБ и беспроводным контроллером DualSense. ' +
      'Поддержка игр в 4K и 120 кадров в секунду.',
    retailPriceSom: 54_900,
    category: 'Игры и консоли',
    status: AuctionStatus.upcoming,
    startIn: 5 * DAY,
  },
]
