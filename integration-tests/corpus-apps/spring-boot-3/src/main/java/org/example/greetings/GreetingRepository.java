package org.example.greetings;

import org.springframework.data.jpa.repository.JpaRepository;

interface GreetingRepository extends JpaRepository<Greeting, Long> {}
