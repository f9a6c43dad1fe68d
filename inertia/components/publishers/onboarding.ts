import type { Data } from '@generated/data'

/** Where a publisher stands, in words, for the operator (`onboarding.step` of the API). */
const STEP_WORDS: Record<string, string> = {
  choose_delivery_method: 'Choosing a delivery method',
  confirm_quality_rules: 'Confirming the quality rules',
  test_in_sandbox: 'Testing in the sandbox',
  request_go_live: 'Tested; may ask to go live',
  awaiting_approval: 'Waiting for your approval',
  monitor: 'Onboarded',
}

export function stepWords(step: string) {
  return STEP_WORDS[step] ?? step.replaceAll('_', ' ')
}

const METHOD_WORDS: Record<string, string> = { api: 'API', form: 'Hosted form', upload: 'Upload' }

export function deliveryMethodsWords(methods: string[]) {
  return methods.length
    ? methods.map((method) => METHOD_WORDS[method] ?? method).join(', ')
    : 'None chosen yet'
}

export type StepState = 'done' | 'current' | 'todo' | 'skipped'
export type OnboardingStepView = {
  key: string
  title: string
  state: StepState
  text: string
  /** When the step was taken, if the API records it. */
  at: string | null
}

/** The API's steps in the specification's order; `awaiting_approval` is the operator's turn. */
const ORDER = [
  'choose_delivery_method',
  'confirm_quality_rules',
  'test_in_sandbox',
  'request_go_live',
  'awaiting_approval',
]

/**
 * The five steps of onboarding as the operator follows them: each done,
 * current, still to do, or skipped: a publisher may ask to go live without
 * a sandbox test, and the operator may set one live that never asked.
 */
export function onboardingSteps(publisher: Data.Publisher): OnboardingStepView[] {
  const onboarding = publisher.onboarding
  const live = onboarding.step === 'monitor'
  const current = ORDER.indexOf(onboarding.step)
  const state = (index: number, done: boolean): StepState =>
    done ? 'done' : live ? 'skipped' : index === current ? 'current' : 'todo'

  const methods = publisher.delivery_methods
  const confirmed = onboarding.rules_confirmed_at !== null
  const leads = onboarding.sandbox_leads
  const requested = onboarding.go_live_requested_at !== null
  const sandboxSkipped = leads === 0 && (requested || live)
  return [
    {
      key: 'choose_delivery_method',
      title: 'Choose a delivery method',
      state: state(0, methods.length > 0),
      text: methods.length
        ? `Delivers by ${deliveryMethodsWords(methods)}.`
        : live
          ? 'Skipped: no delivery method chosen yet.'
          : 'The publisher accepts the invitation and picks API, hosted form or upload.',
      at: null,
    },
    {
      // Going live needed the confirmation; rules changed since void it, not the step.
      key: 'confirm_quality_rules',
      title: 'Confirm the quality rules',
      state: state(1, confirmed || live),
      text: confirmed
        ? `Confirmed version ${onboarding.rules_version} of the rules.`
        : live
          ? `Confirmed before going live; version ${onboarding.rules_version}, changed since, is not confirmed yet.`
          : `The publisher reads and confirms the rules its leads are held to (version ${onboarding.rules_version}).`,
      at: onboarding.rules_confirmed_at,
    },
    {
      key: 'test_in_sandbox',
      title: 'Test in the sandbox',
      state: sandboxSkipped ? 'skipped' : state(2, leads > 0),
      text: sandboxSkipped
        ? 'Skipped: no sandbox lead was sent.'
        : leads > 0
          ? `${leads}${leads >= 1000 ? '+' : ''} sandbox ${leads === 1 ? 'lead' : 'leads'} sent.`
          : 'The publisher sends test leads with a sandbox key.',
      at: null,
    },
    {
      key: 'request_go_live',
      title: 'Ask to go live',
      state: state(3, requested),
      text: requested
        ? 'The publisher asked to go live.'
        : live
          ? 'Skipped: you set it live without a request.'
          : 'The publisher asks you to set it live.',
      at: onboarding.go_live_requested_at,
    },
    {
      key: 'approved',
      title: 'Approved and live',
      state: state(4, live),
      text: live
        ? publisher.status === 'paused'
          ? 'Went live; paused now.'
          : 'Live: its leads are routed to buyers.'
        : onboarding.step === 'awaiting_approval'
          ? 'Your turn: set it live when you are satisfied.'
          : 'You set it live.',
      at: onboarding.went_live_at,
    },
  ]
}
