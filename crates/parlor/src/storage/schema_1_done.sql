result IN ('won', 'lost')
    AND ((game = 'mastermind' AND variant LIKE '% (maker)') OR (game = 'nocca' AND variant IN ('two players', 'watch')))