import { describe, expect, test } from 'vitest'
import {
  ageOn,
  completeProfileError,
  latestAdultBirthDate,
  loginSchema,
  normalizePhoneInput,
  profileSchema,
  registerFormSchema,
} from './user.ts'

const firstMessage = (result: {
  success: boolean
  error?: { issues: Array<{ path: (string | number)[]; message: string }> }
}) => result.error?.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`)

describe('login', () => {
  test('username and password must not be empty', () => {
    expect(firstMessage(loginSchema.safeParse({ username: '', password: '' }))).toEqual([
      'username:validation.enterLogin',
      'password:validation.enterPassword',
    ])
    expect(firstMessage(loginSchema.safeParse({}))).toEqual([
      'username:validation.enterLogin',
      'password:validation.enterPassword',
    ])
    expect(loginSchema.safeParse({ username: 'a', password: 'b' }).success).toBe(true)
  })
})

describe('registration', () => {
  const valid = {
    username: 'aibek',
    email: 'Aibek@Mail.KG ',
    password: 'secret1',
    confirmPassword: 'secret1',
  }

  test('accepts a valid form and normalises the email', () => {
    const result = registerFormSchema.safeParse(valid)
    expect(result.success && result.data.email).toBe('aibek@mail.kg')
  })

  test('username at least 3, email valid, password at least 6', () => {
    expect(firstMessage(registerFormSchema.safeParse({ ...valid, username: 'ab' }))).toEqual([
      'username:validation.usernameMin',
    ])
    expect(firstMessage(registerFormSchema.safeParse({ ...valid, email: 'not-an-email' }))).toEqual(
      ['email:validation.email'],
    )
    expect(
      firstMessage(
        registerFormSchema.safeParse({ ...valid, password: '12345', confirmPassword: '12345' }),
      ),
    ).toEqual(['password:validation.passwordMin'])
  })

  test('a different confirmation is an error on confirmPassword', () => {
    expect(
      firstMessage(registerFormSchema.safeParse({ ...valid, confirmPassword: 'secret2' })),
    ).toEqual(['confirmPassword:validation.passwordsMismatch'])
  })

  test('every field is required', () => {
    expect(firstMessage(registerFormSchema.safeParse({}))).toEqual([
      'username:validation.required',
      'email:validation.required',
      'password:validation.required',
      'confirmPassword:validation.required',
    ])
  })

  test('usernames are letters, digits, dot, dash and underscore', () => {
    expect(registerFormSchema.safeParse({ ...valid, username: 'Айбек_01' }).success).toBe(true)
    expect(firstMessage(registerFormSchema.safeParse({ ...valid, username: '<script>' }))).toEqual([
      'username:validation.usernameChars',
    ])
  })
})

describe('profile', () => {
  const valid = { firstName: 'Айбек', lastName: 'Осмонов', email: 'a@b.kg' }

  test('names need two characters; phone, birth date and gender are optional', () => {
    expect(profileSchema.safeParse(valid).success).toBe(true)
    expect(
      profileSchema.safeParse({ ...valid, phone: '', dateOfBirth: '', gender: '' }).success,
    ).toBe(true)
    expect(firstMessage(profileSchema.safeParse({ ...valid, firstName: 'A' }))).toEqual([
      'firstName:validation.firstName',
    ])
    expect(firstMessage(profileSchema.safeParse({ ...valid, lastName: ' ' }))).toEqual([
      'lastName:validation.lastName',
    ])
  })

  test('phone is +996 and nine digits, nothing else', () => {
    expect(profileSchema.safeParse({ ...valid, phone: '+996555123456' }).success).toBe(true)
    for (const bad of [
      '+996 555 123 456',
      '+99655512345',
      '+7555123456',
      '996555123456',
      '+996(555)12345',
    ]) {
      expect(firstMessage(profileSchema.safeParse({ ...valid, phone: bad }))).toEqual([
        'phone:validation.phone',
      ])
    }
    const prefixOnly = profileSchema.safeParse({ ...valid, phone: ' +996 ' })
    expect(prefixOnly.success && prefixOnly.data.phone).toBe(null)
  })

  test('the user must be 18, counted with month and day', () => {
    const today = new Date()
    const y = today.getUTCFullYear()
    const mm = String(today.getUTCMonth() + 1).padStart(2, '0')
    const dd = String(today.getUTCDate()).padStart(2, '0')
    expect(
      profileSchema.safeParse({ ...valid, dateOfBirth: `${y - 18}-${mm}-${dd}` }).success,
    ).toBe(true)
    expect(
      firstMessage(profileSchema.safeParse({ ...valid, dateOfBirth: `${y - 17}-${mm}-${dd}` })),
    ).toEqual(['dateOfBirth:validation.adult'])
    expect(firstMessage(profileSchema.safeParse({ ...valid, dateOfBirth: '2001-02-30' }))).toEqual([
      'dateOfBirth:validation.dateOfBirth',
    ])
    expect(firstMessage(profileSchema.safeParse({ ...valid, gender: 'robot' }))).toEqual([
      'gender:validation.gender',
    ])
  })

  test('age counts the birthday, not just the year', () => {
    const today = new Date(Date.UTC(2026, 10, 22))
    expect(ageOn('2008-11-22', today)).toBe(18)
    expect(ageOn('2008-11-23', today)).toBe(17)
    expect(ageOn('2008-12-01', today)).toBe(17)
    expect(latestAdultBirthDate(today)).toBe('2008-11-22')
    expect(latestAdultBirthDate(new Date(Date.UTC(2028, 1, 29)))).toBe('2010-02-28')
  })
})

describe('complete-profile modal checks, in order', () => {
  const today = new Date(Date.UTC(2026, 10, 22))
  const full = {
    firstName: 'A',
    lastName: 'B',
    phone: '+996555123456',
    dateOfBirth: '1990-01-01',
    gender: 'male',
  }
  test.each([
    [{ ...full, firstName: ' ' }, 'completeProfile.errors.firstName'],
    [{ ...full, firstName: '', lastName: '' }, 'completeProfile.errors.firstName'],
    [{ ...full, lastName: '' }, 'completeProfile.errors.lastName'],
    [{ ...full, phone: '+996' }, 'completeProfile.errors.phone'],
    [{ ...full, phone: '' }, 'completeProfile.errors.phone'],
    [{ ...full, dateOfBirth: '' }, 'completeProfile.errors.dateOfBirth'],
    [{ ...full, gender: '' }, 'completeProfile.errors.gender'],
    [{ ...full, dateOfBirth: '2008-11-23' }, 'completeProfile.errors.adult'],
    [full, null],
  ])('%o -> %s', (value, expected) => {
    expect(completeProfileError(value, today)).toBe(expected)
  })
})

test('phone input keeps digits and +, forces +996, cuts to 13', () => {
  expect(normalizePhoneInput('+996 (555) 12-34-56')).toBe('+996555123456')
  expect(normalizePhoneInput('+9965551234567890')).toBe('+996555123456')
  expect(normalizePhoneInput('8555')).toBe('+996')
  expect(normalizePhoneInput('')).toBe('+996')
  expect(normalizePhoneInput('+99')).toBe('+996')
})
